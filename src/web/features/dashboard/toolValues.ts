import type { AdminTool, ToolInput } from '../../../shared/dashboard';
import {
  DEFAULT_ACTIVATION_LIMIT,
  DEFAULT_HEARTBEAT_MINUTES,
  type LicenseModel,
} from '../../../shared/tool-rules';

/** The tool form's values: the tool's input as typed (numbers as text), with the authenticator code. */
export type ToolValues = Omit<
  ToolInput,
  | 'code'
  | 'trialDays'
  | 'packageId'
  | 'licenseModel'
  | 'heartbeatMinutes'
  | 'updatesMonths'
  | 'renewalPriceINR'
  | 'renewalPriceUSD'
> & {
  code: string;
  /** "lifetime" or a number of months ("12m"), with the renewal prices (empty: none, or the INR one / 75). */
  updatesMonths: string;
  renewalPriceINR: string;
  renewalPriceUSD: string;
  trialDays: string;
  packageId: string;
  licenseModel: LicenseModel;
  heartbeatMinutes: string;
};

export const FIELDS = [
  'name',
  'description',
  'device',
  'delivery',
  'priceINR',
  'priceUSD',
  'activationLimit',
  'licenseModel',
  'heartbeatMinutes',
  'trialDays',
  'packageId',
  'updatesMonths',
  'renewalPriceINR',
  'renewalPriceUSD',
  'code',
] as const satisfies ReadonlyArray<keyof ToolValues>;
export const fieldId = (field: string) => `tool-${field}`;

/** A price in subunits as the operator types it (rupees or dollars with two decimals). */
export const typedPrice = (subunits: number | null) => (subunits === null ? '' : (subunits / 100).toFixed(2));

/** An update period as the operator types it: "lifetime" or "12m". */
const typedPeriod = (months: number | null) => (months === null ? 'lifetime' : `${months}m`);

/** The form's values for a tool as stored (null: a new tool's defaults), without a code. */
export function valuesOf(tool: AdminTool | null): ToolValues {
  if (!tool) {
    return {
      name: '',
      description: '',
      device: 'Windows',
      priceINR: '',
      priceUSD: '',
      comingSoon: false,
      active: true,
      delivery: 'license_key',
      activationLimit: String(DEFAULT_ACTIVATION_LIMIT),
      licenseModel: 'per-device',
      heartbeatMinutes: String(DEFAULT_HEARTBEAT_MINUTES),
      trialDays: '0',
      packageId: '',
      updatesMonths: 'lifetime',
      renewalPriceINR: '',
      renewalPriceUSD: '',
      code: '',
    };
  }
  return {
    name: tool.name,
    description: tool.description,
    device: tool.device ?? 'none',
    priceINR: typedPrice(tool.pricePaise),
    priceUSD: typedPrice(tool.priceCents),
    comingSoon: tool.comingSoon,
    active: tool.active,
    delivery: tool.delivery,
    activationLimit: String(tool.activationLimit),
    licenseModel: tool.licenseModel,
    heartbeatMinutes: String(tool.heartbeatMinutes),
    trialDays: String(tool.trialDays),
    packageId: tool.packageId ?? '',
    updatesMonths: typedPeriod(tool.updatesMonths),
    renewalPriceINR: typedPrice(tool.renewalPricePaise),
    renewalPriceUSD: typedPrice(tool.renewalPriceCents),
    code: '',
  };
}
