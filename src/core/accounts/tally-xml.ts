import type { Voucher } from './vouchers.js';

/**
 * Tally's XML import envelope (Import Data / Vouchers). In Tally a debit is a negative AMOUNT with
 * ISDEEMEDPOSITIVE Yes and a credit a positive AMOUNT with ISDEEMEDPOSITIVE No, so a voucher's
 * AMOUNTs add up to 0; the party's entry comes first, as Tally writes it.
 */
const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Paise as Tally's amount: rupees with 2 decimals, debits negative. */
export function tallyAmount(debitPaise: number): string {
  const p = -debitPaise;
  const abs = Math.abs(p);
  return `${p < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function voucherXml(v: Voucher): string {
  const entries = [...v.entries].sort((a, b) => Number(b.ledger === v.party) - Number(a.ledger === v.party));
  const lines = entries.map(
    (e) => `      <ALLLEDGERENTRIES.LIST>
       <LEDGERNAME>${escapeXml(e.ledger)}</LEDGERNAME>
       <ISDEEMEDPOSITIVE>${e.paise > 0 ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE>
       <ISPARTYLEDGER>${e.ledger === v.party ? 'Yes' : 'No'}</ISPARTYLEDGER>
       <AMOUNT>${tallyAmount(e.paise)}</AMOUNT>
      </ALLLEDGERENTRIES.LIST>`,
  );
  return `    <TALLYMESSAGE xmlns:UDF="TallyUDF">
     <VOUCHER VCHTYPE="${escapeXml(v.type)}" ACTION="Create" OBJVIEW="Accounting Voucher View">
      <DATE>${v.date.replace(/-/g, '')}</DATE>
      <EFFECTIVEDATE>${v.date.replace(/-/g, '')}</EFFECTIVEDATE>
      <VOUCHERTYPENAME>${escapeXml(v.type)}</VOUCHERTYPENAME>
      <VOUCHERNUMBER>${escapeXml(v.number)}</VOUCHERNUMBER>
      <PARTYLEDGERNAME>${escapeXml(v.party)}</PARTYLEDGERNAME>
      <PERSISTEDVIEW>Accounting Voucher View</PERSISTEDVIEW>
      <NARRATION>${escapeXml(v.narration)}</NARRATION>
${lines.join('\n')}
     </VOUCHER>
    </TALLYMESSAGE>`;
}

export function tallyXml(vouchers: Voucher[], company: string | null): string {
  const vars = company
    ? `
    <STATICVARIABLES>
     <SVCURRENTCOMPANY>${escapeXml(company)}</SVCURRENTCOMPANY>
    </STATICVARIABLES>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<ENVELOPE>
 <HEADER>
  <TALLYREQUEST>Import Data</TALLYREQUEST>
 </HEADER>
 <BODY>
  <IMPORTDATA>
   <REQUESTDESC>
    <REPORTNAME>Vouchers</REPORTNAME>${vars}
   </REQUESTDESC>
   <REQUESTDATA>
${vouchers.map(voucherXml).join('\n')}
   </REQUESTDATA>
  </IMPORTDATA>
 </BODY>
</ENVELOPE>
`;
}
