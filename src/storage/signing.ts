/**
 * HMAC-SHA256 signatures for download addresses of the local storage backend. The signature
 * covers the object key, the expiry and the download name, so none can be changed.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export function signDownload(secret: string, key: string, expires: number, name: string): string {
  return createHmac("sha256", secret).update(`${key}\n${expires}\n${name}`).digest("base64url");
}

export type SignatureCheck = "ok" | "expired" | "invalid";

export function verifyDownload(
  secret: string,
  key: string,
  expires: number,
  name: string,
  signature: string,
  nowSeconds: number,
): SignatureCheck {
  const expected = Buffer.from(signDownload(secret, key, expires, name));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  return nowSeconds > expires ? "expired" : "ok";
}
