import type { ComponentProps, FormEventHandler, ReactNode } from 'react';
import { Button, FormError, TextAreaField } from '../../components/form';

/**
 * A change the buyer feels and the operator cannot take back (a refund, a suspension, a payment returned), asked for
 * in a red box: what it will do, the fields it needs, and a second, explicit click on its danger button, or Cancel.
 */
export function DangerForm({
  label,
  warning,
  onSubmit,
  form,
  submitLabel,
  onCancel,
  className = '',
  children,
}: {
  /** The form's accessible name: what it does to what. */
  label: string;
  warning: ReactNode;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's state (useForm): its error under the fields, and its busy submit button. */
  form: { formError: string | null; busy: string | null };
  submitLabel: ReactNode;
  onCancel: () => void;
  /** Classes beside the box's own (its width in a row). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={onSubmit}
      className={`space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 ${className}`}
      aria-label={label}
    >
      <p className="text-sm text-red-900">{warning}</p>
      {children}
      <FormError message={form.formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" busy={form.busy === 'submit'}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The reason a danger form records (and, for a suspension, the buyer reads): required, three lines to write it in. */
export function ReasonField(props: Omit<ComponentProps<typeof TextAreaField>, 'required' | 'rows'>) {
  return <TextAreaField {...props} required rows={3} />;
}
