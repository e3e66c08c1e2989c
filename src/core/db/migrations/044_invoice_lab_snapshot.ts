/**
 * An issued invoice keeps the supplier as it was at issue, as it already keeps the recipient, the
 * GSTINs and the prices: the lab's name, address, phone and email. A later change of the lab's
 * settings never rewrites a tax invoice already given out. Invoices issued before this kept none;
 * they take the lab's details of today once, here, and keep them from now on (a draft takes them
 * when it is issued).
 */
export const sql = /* sql */ `
ALTER TABLE invoices ADD COLUMN lab_name TEXT;
ALTER TABLE invoices ADD COLUMN lab_address TEXT;
ALTER TABLE invoices ADD COLUMN lab_phone TEXT;
ALTER TABLE invoices ADD COLUMN lab_email TEXT;
UPDATE invoices SET
  lab_name = (SELECT o.name FROM organizations o WHERE o.id = invoices.organization_id),
  lab_address = (SELECT o.address FROM organizations o WHERE o.id = invoices.organization_id),
  lab_phone = (SELECT o.phone FROM organizations o WHERE o.id = invoices.organization_id),
  lab_email = (SELECT o.email FROM organizations o WHERE o.id = invoices.organization_id)
  WHERE invoice_number IS NOT NULL;
`;
