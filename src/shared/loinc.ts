/**
 * LOINC codes: NNNNN-N, one to seven digits, a dash and the mod-10 check digit LOINC
 * computes (the Luhn scheme: from the right, every other digit doubled, the digits summed; the check
 * digit brings the sum to a multiple of ten). A typo in a code is caught before a hospital's system
 * files a result under another analyte.
 */
export const LOINC_PATTERN = /^(\d{1,7})-(\d)$/;

/** The check digit of a LOINC code's number part ("718" -> 7). */
export function loincCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      const twice = d * 2;
      sum += Math.floor(twice / 10) + (twice % 10);
    } else sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Null when the code is a well-formed LOINC code with the right check digit, else why not. */
export function loincProblem(code: string): string | null {
  const m = LOINC_PATTERN.exec(code);
  if (!m) return 'LOINC code must look like 1558-6 (digits, a dash, the check digit)';
  const expected = loincCheckDigit(m[1]!);
  if (Number(m[2]) !== expected) return `LOINC code ${code} has a wrong check digit (it should end in -${expected})`;
  return null;
}
