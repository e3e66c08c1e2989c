import { DEFAULT_SAC } from '../../shared/gst.js';

/**
 * What GSTR-1's sections share: tax figures in paise (rupees only when written), the tool's
 * date and item shapes, and the two tables every supply reaches (exempt/nil and HSN/SAC).
 */
export const r2 = (paise: number) => Math.round(paise) / 100;
export const gstDate = (ymd: string) => `${ymd.slice(8, 10)}-${ymd.slice(5, 7)}-${ymd.slice(0, 4)}`;

/**
 * An inter-state supply to an unregistered person invoiced above this is B2C Large, reported
 * invoice by invoice (rule 59(4)(a)(ii): ₹1,00,000 from 1 August 2024).
 */
export const B2CL_LIMIT_PAISE = 1_00_000_00;

export interface Tax {
  txval: number;
  iamt: number;
  camt: number;
  samt: number;
}
export const zero = (): Tax => ({ txval: 0, iamt: 0, camt: 0, samt: 0 });
export const add = (t: Tax, l: Tax, sign = 1) => {
  t.txval += sign * l.txval;
  t.iamt += sign * l.iamt;
  t.camt += sign * l.camt;
  t.samt += sign * l.samt;
};
export const rupeesOf = (t: Tax) => ({
  txval: r2(t.txval),
  iamt: r2(t.iamt),
  camt: r2(t.camt),
  samt: r2(t.samt),
  csamt: 0,
});

/** Taxed lines per rate, as the tool's items (num: rate x 100 + 1, as the tool numbers them). */
export function itemsByRate(lines: { rate: number; tax: Tax }[]) {
  const by = new Map<number, Tax>();
  for (const l of lines.filter((x) => x.rate > 0)) {
    const t = by.get(l.rate) ?? zero();
    add(t, l.tax);
    by.set(l.rate, t);
  }
  return [...by].sort(([a], [b]) => a - b).map(([rt, t]) => ({ num: rt * 100 + 1, itm_det: { rt, ...rupeesOf(t) } }));
}

/** Items of an inter-state document (B2CL, CDNUR): IGST only, as the tool's sheets take them. */
export const igstItems = (lines: { rate: number; tax: Tax }[]) =>
  itemsByRate(lines).map(({ num, itm_det: { rt, txval, iamt, csamt } }) => ({
    num,
    itm_det: { rt, txval, iamt, csamt },
  }));

export type NilKey = 'INTRAB2B' | 'INTRB2B' | 'INTRAB2C' | 'INTRB2C';

/** Table 12's two parts: supplies to registered persons (B2B, CDNR) and to everyone else. */
export type HsnTable = 'hsn_b2b' | 'hsn_b2c';

/**
 * A services code (SAC, chapter 99) is reported with UQC "NA" and no quantity, as the tool validates
 * it; a goods code keeps its quantity under "OTH".
 */
export const isServiceCode = (code: string) => code.startsWith('99');

export interface HsnItem {
  num: number;
  hsn_sc: string;
  desc: string;
  uqc: string;
  qty: number;
  rt: number;
  txval: number;
  iamt: number;
  camt: number;
  samt: number;
  csamt: number;
}

type HsnRow = Tax & { sac: string; rate: number; qty: number };

/** The exempt table and the HSN/SAC summary, added to by every section (a credit note subtracts). */
export class Gstr1Sums {
  readonly nil: Record<NilKey, number> = { INTRAB2B: 0, INTRB2B: 0, INTRAB2C: 0, INTRB2C: 0 };
  readonly hsn: Record<HsnTable, Map<string, HsnRow>> = { hsn_b2b: new Map(), hsn_b2c: new Map() };

  toHsn(table: HsnTable, sac: string | null, rate: number, qty: number, t: Tax, sign = 1) {
    const code = sac || DEFAULT_SAC;
    const key = `${code}|${rate}`;
    const h = this.hsn[table].get(key) ?? { sac: code, rate, qty: 0, ...zero() };
    h.qty += sign * qty;
    add(h, t, sign);
    this.hsn[table].set(key, h);
  }

  nilJson() {
    return {
      inv: (Object.keys(this.nil) as NilKey[]).map((sply_ty) => ({
        sply_ty,
        expt_amt: r2(this.nil[sply_ty]),
        nil_amt: 0,
        ngsup_amt: 0,
      })),
    };
  }

  /** Each part numbered from 1, sorted by code and rate; a part with no rows is left out. */
  hsnJson(): Partial<Record<HsnTable, HsnItem[]>> {
    const part = (rows: Map<string, HsnRow>) =>
      [...rows.values()]
        .sort((a, b) => a.sac.localeCompare(b.sac) || a.rate - b.rate)
        .map((h, i) => {
          const service = isServiceCode(h.sac);
          return {
            num: i + 1,
            hsn_sc: h.sac,
            desc: '',
            uqc: service ? 'NA' : 'OTH',
            qty: service ? 0 : h.qty,
            rt: h.rate,
            ...rupeesOf(h),
          };
        });
    return Object.fromEntries(
      (Object.keys(this.hsn) as HsnTable[]).filter((t) => this.hsn[t].size > 0).map((t) => [t, part(this.hsn[t])]),
    );
  }
}
