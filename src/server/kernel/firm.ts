import { gstinCheckCharacter, isValidGstin, normaliseGstin } from '../../shared/gstin';
import { findIndianState, INDIAN_STATES, type IndianState } from '../../shared/indian-states';
import { formatAddress, SITE } from '../../shared/site';

/** The supplier on every tax invoice and credit note (rule 46 (a)): who issues it, from where, under which GSTIN. */
export type FirmIdentity = {
  legalName: string;
  address: string;
  gstin: string;
  state: IndianState;
  /** Services Accounting Code printed on every line, and its description. */
  sac: string;
  sacDescription: string;
  /** First part of every document number: `PCA` gives invoices `PCA/26-27/00001` and credit notes `PCAC/…`. */
  invoicePrefix: string;
  /** Application reference number of the letter of undertaking; without it exports are charged IGST. */
  lutArn: string | undefined;
  /** Outside production the identity is a stand-in and every document says so. */
  specimen: boolean;
  /**
   * Where a buyer pays a proforma invoice by NEFT/RTGS (issue 68): FIRM_BANK_ACCOUNT, FIRM_BANK_IFSC and
   * FIRM_BANK_NAME, the account holder being the legal name. Null in production without them: proformas then
   * offer the payment link only. Outside production a specimen account fills in.
   */
  bank: FirmBank | null;
};

export type FirmBank = { accountNumber: string; ifsc: string; bankName: string };

/** IFSC: four letters of the bank, a zero, six characters of the branch. */
const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const SPECIMEN_BANK: FirmBank = {
  accountNumber: '000000000000',
  ifsc: 'SPEC0000001',
  bankName: 'Specimen Bank, Jaipur (not a real account)',
};

/** The firm's bank account for transfers: all three settings or none (then the specimen outside production). */
function parseFirmBank(
  raw: (name: string) => string | undefined,
  isProduction: boolean,
): { bank: FirmBank | null; problems: string[] } {
  const accountNumber = raw('FIRM_BANK_ACCOUNT')?.replace(/\s+/g, '');
  const ifsc = raw('FIRM_BANK_IFSC')?.replace(/\s+/g, '').toUpperCase();
  const bankName = raw('FIRM_BANK_NAME');
  if (!accountNumber && !ifsc && !bankName)
    return { bank: isProduction ? null : SPECIMEN_BANK, problems: [] };
  const problems: string[] = [];
  if (!accountNumber || !/^\d{9,18}$/.test(accountNumber))
    problems.push(
      'FIRM_BANK_ACCOUNT: the account number, 9 to 18 digits (set with FIRM_BANK_IFSC and FIRM_BANK_NAME)',
    );
  if (!ifsc || !IFSC_PATTERN.test(ifsc))
    problems.push(
      'FIRM_BANK_IFSC: the branch IFSC, e.g. HDFC0001234 (set with FIRM_BANK_ACCOUNT and FIRM_BANK_NAME)',
    );
  if (!bankName) problems.push('FIRM_BANK_NAME: the bank and branch, e.g. "HDFC Bank, MI Road, Jaipur"');
  if (problems.length > 0 || !accountNumber || !ifsc || !bankName) return { bank: null, problems };
  return { bank: { accountNumber, ifsc, bankName }, problems };
}

export const DEFAULT_SAC = '997331';
export const DEFAULT_FIRM_STATE = 'Rajasthan';
export const DEFAULT_INVOICE_PREFIX = 'PCA';

/** Descriptions of the codes an accountant is likely to choose for downloadable licensed software. */
const SAC_DESCRIPTIONS: Record<string, string> = {
  '997331': 'Licensing services for the right to use computer software and databases',
  '998434': 'Software downloads',
};

/** A well-formed GSTIN for the specimen identity: Rajasthan's code, a made-up PAN, the right check character. */
function specimenGstin(stateCode: string): string {
  const first14 = `${stateCode}AAAAA0000A1Z`;
  return first14 + gstinCheckCharacter(first14);
}

function findState(value: string): IndianState | undefined {
  return findIndianState(value) ?? INDIAN_STATES.find((state) => state.gstCode === value);
}

/**
 * Reads the firm's tax identity from the environment (docs/product.md §12). In production the legal name,
 * registered address and GSTIN are required and the GSTIN must belong to FIRM_STATE; elsewhere a specimen identity
 * fills what is missing. Every problem is returned, so the caller can list them with the other settings.
 */
export function parseFirmIdentity(
  raw: (name: string) => string | undefined,
  isProduction: boolean,
): { identity: FirmIdentity | undefined; problems: string[] } {
  const problems: string[] = [];
  const stateValue = raw('FIRM_STATE') ?? DEFAULT_FIRM_STATE;
  const state = findState(stateValue);
  if (!state) problems.push('FIRM_STATE: must be an Indian state or union territory, by name or GST code');

  const legalName = raw('FIRM_LEGAL_NAME');
  const address = raw('FIRM_ADDRESS')?.replace(/\\n/g, '\n');
  const gstinValue = raw('FIRM_GSTIN');
  if (isProduction) {
    if (!legalName) problems.push('FIRM_LEGAL_NAME: required in production');
    if (!address) problems.push('FIRM_ADDRESS: required in production');
    if (!gstinValue) problems.push('FIRM_GSTIN: required in production');
  }
  const gstin = gstinValue ? normaliseGstin(gstinValue) : undefined;
  if (gstin && !isValidGstin(gstin))
    problems.push('FIRM_GSTIN: must be a 15-character GSTIN with the right check character');
  else if (gstin && state && gstin.slice(0, 2) !== state.gstCode)
    problems.push(`FIRM_GSTIN: its state code ${gstin.slice(0, 2)} is not FIRM_STATE's (${state.gstCode})`);

  const sac = raw('INVOICE_SAC') ?? DEFAULT_SAC;
  if (!/^99\d{4}$/.test(sac)) problems.push('INVOICE_SAC: must be a 6-digit services code starting with 99');
  const invoicePrefix = (raw('INVOICE_PREFIX') ?? DEFAULT_INVOICE_PREFIX).toUpperCase();
  // A number is prefix + "/26-27/00001" (12 characters) and a credit note adds "C": rule 46 allows 16.
  if (!/^[A-Z0-9]{1,3}$/.test(invoicePrefix))
    problems.push('INVOICE_PREFIX: 1 to 3 letters or digits (document numbers have at most 16 characters)');
  const lutArn = raw('LUT_ARN')?.toUpperCase();
  if (lutArn && !/^[A-Z0-9]{15}$/.test(lutArn))
    problems.push('LUT_ARN: must be the 15-character ARN of the letter of undertaking');

  const bank = parseFirmBank(raw, isProduction);
  problems.push(...bank.problems);

  if (problems.length > 0 || !state) return { identity: undefined, problems };
  return {
    identity: {
      legalName: legalName ?? SITE.legalName,
      address: address ?? formatAddress('\n'),
      gstin: gstin ?? specimenGstin(state.gstCode),
      state,
      sac,
      sacDescription: SAC_DESCRIPTIONS[sac] ?? 'Licensed software',
      invoicePrefix,
      lutArn,
      specimen: !isProduction,
      bank: bank.bank,
    },
    problems,
  };
}
