/** Money: integer paise inside, rupees (max 2 decimals) at the API edge, en-IN INR on screen. */
export type Paise = number;

export function rupeesToPaise(rupees: number): Paise {
  // Round half away from zero at the paise; guards against 0.1 + 0.2 style binary noise.
  return Math.round(rupees * 100 + Number.EPSILON * Math.sign(rupees));
}

export function paiseToRupees(paise: Paise): number {
  return paise / 100;
}

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });

/** ₹1,23,456.00 */
export function formatInr(paise: Paise): string {
  return inr.format(paise / 100);
}
