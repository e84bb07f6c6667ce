/** Where a worker and its solver sessions log (the server's pino logger, or a lone worker's). */
export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
