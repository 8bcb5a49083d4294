// The contract's fairness score: population variance of assigned hours over all volunteers
// of the request divided by the square of their mean (the squared coefficient of variation);
// 0 when nobody is assigned; rounded to 4 decimals.

export function fairnessScore(hours: readonly number[]): number {
  const n = hours.length;
  const total = hours.reduce((a, b) => a + b, 0);
  if (n === 0 || total <= 0) return 0;
  const mean = total / n;
  const variance = hours.reduce((a, h) => a + (h - mean) ** 2, 0) / n;
  return Math.round((variance / (mean * mean)) * 1e4) / 1e4 || 0;
}
