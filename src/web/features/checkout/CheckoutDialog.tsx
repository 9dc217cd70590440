import type { ComponentProps } from 'react';
import { COUNTRIES } from '../../../shared/countries';
import { displayPrice, formatPrice } from '../../../shared/money';
import type { Tool } from '../../../shared/shop';
import { editionPrice } from '../../components/tools/editions';
import { toolTitle } from '../../components/tools/toolTitle';
import { BillingModal } from './BillingModal';

/**
 * The catalogue's checkout (decision 052): the billing dialog with its coupon field, order summary, the editions of
 * a tool that has them and the country list, loaded when a buyer reaches for it rather than with the page. The page
 * knows the detected country by its code only, so the country list stays out of the page's code too.
 */
export function CheckoutDialog({
  countryCode,
  tool,
  ...props
}: Omit<ComponentProps<typeof BillingModal>, 'defaultCountry' | 'summary' | 'toolId' | 'editions'> & {
  countryCode?: string;
  /** The tool being bought; null while the dialog is closed. */
  tool: Tool | null;
}) {
  const defaultCountry = COUNTRIES.find((country) => country.code === countryCode)?.name;
  const { currency } = props;
  return (
    <BillingModal
      {...props}
      defaultCountry={defaultCountry}
      toolId={tool?._id}
      editions={tool?.editions?.length ? tool.editions : undefined}
      summary={(edition) =>
        tool && (
          <div className="flex items-baseline justify-between gap-4">
            <span className="font-medium text-brand-900">
              {edition ? `${toolTitle(tool)} — ${edition.name}` : toolTitle(tool)}
            </span>
            <span className="shrink-0 font-semibold text-brand-900">
              {formatPrice(
                edition ? editionPrice(edition, currency) : displayPrice(tool, currency),
                currency,
              )}
            </span>
          </div>
        )
      }
    />
  );
}
