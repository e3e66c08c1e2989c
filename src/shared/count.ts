const count = new Intl.NumberFormat('en-IN');

/** A count as the product writes numbers: Indian grouping (12,34,567). */
export function formatCount(n: number): string {
  return count.format(n);
}
