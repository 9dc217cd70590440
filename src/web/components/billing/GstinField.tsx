import { MAX_LENGTH } from '../../../shared/limits';
import { BILLING_FIELD_LABELS } from '../../../shared/money';
import { controlProps, Field, inputClass } from '../form';

/**
 * The example in the GSTIN field: a Rajasthan (08) number whose last character is the right check character, so
 * a buyer who copies its shape is not told their own format is wrong. A test holds it to the shared check.
 */
export const GSTIN_EXAMPLE = '08ABCDE1234F1Z0';

/** The optional GSTIN of an INR order (docs/product.md §5), for a GST invoice in the buyer's business name. */
export function GstinField({
  id,
  value,
  error,
  onValueChange,
}: {
  id: string;
  value: string;
  error?: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <Field
      id={id}
      label={BILLING_FIELD_LABELS.gstin}
      optional
      hint="For a GST invoice in your business's name."
      error={error}
    >
      <input
        {...controlProps(id, error, true)}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={MAX_LENGTH.gstin}
        // Marked as an example, in lower-case "e.g.": the number alone, in capitals like what is typed, looked
        // like a GSTIN already filled in (issue 63).
        placeholder={`e.g. ${GSTIN_EXAMPLE}`}
        className={`${inputClass(Boolean(error))} uppercase placeholder:normal-case`}
      />
    </Field>
  );
}
