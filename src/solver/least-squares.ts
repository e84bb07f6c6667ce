/**
 * Linear least squares by normal equations, for a handful of unknowns on well-scaled rows:
 * the x minimising |rows·x − rhs|², or undefined where the normal equations are singular.
 * Used by the dispersion fits (dispersion/fit.ts) and the mode source's spectral factor
 * (sources/mode-impedance.ts).
 */
export function linearLeastSquares(rows: number[][], rhs: number[]): number[] | undefined {
  const p = rows[0].length;
  const ata = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  const atb = new Array<number>(p).fill(0);
  for (let i = 0; i < rows.length; i++) {
    for (let a = 0; a < p; a++) {
      atb[a] += rows[i][a] * rhs[i];
      for (let b = 0; b < p; b++) ata[a][b] += rows[i][a] * rows[i][b];
    }
  }
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < p; col++) {
    let pivot = col;
    for (let r = col + 1; r < p; r++)
      if (Math.abs(ata[r][col]) > Math.abs(ata[pivot][col])) pivot = r;
    if (Math.abs(ata[pivot][col]) < 1e-300) return undefined;
    [ata[col], ata[pivot]] = [ata[pivot], ata[col]];
    [atb[col], atb[pivot]] = [atb[pivot], atb[col]];
    for (let r = col + 1; r < p; r++) {
      const f = ata[r][col] / ata[col][col];
      for (let c = col; c < p; c++) ata[r][c] -= f * ata[col][c];
      atb[r] -= f * atb[col];
    }
  }
  const x = new Array<number>(p).fill(0);
  for (let r = p - 1; r >= 0; r--) {
    let s = atb[r];
    for (let c = r + 1; c < p; c++) s -= ata[r][c] * x[c];
    x[r] = s / ata[r][r];
  }
  return x;
}
