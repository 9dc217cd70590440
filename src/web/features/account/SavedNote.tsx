import { CircleCheck } from 'lucide';
import { type ReactNode, useState } from 'react';
import { FormError, PrimaryButton } from '../../components/form';
import { Icon } from '../../components/Icon';
import { announce } from '../../lib/announce';

/**
 * What a section's last action did, shown beside its button and said once through the live region (the button
 * keeps focus, so nothing else would read it). Typing again clears it.
 */
export function useSavedNote() {
  const [note, setNote] = useState<string | null>(null);
  return {
    note,
    show(message: string) {
      setNote(message);
      announce(message);
    },
    clear: () => setNote(null),
  };
}

export function SavedNote({ note }: { note: string | null }) {
  if (!note) return null;
  return (
    <p className="flex items-start gap-1.5 text-sm text-emerald-800">
      <Icon node={CircleCheck} className="mt-0.5 size-4 shrink-0" />
      {note}
    </p>
  );
}

/** How a section's form ends: its error, then its button (saying what it does while busy) with the note beside it. */
export function SubmitRow({
  form,
  action = 'submit',
  busyLabel,
  note,
  children,
}: {
  /** The section's form (useForm): its error, and which of its actions runs. */
  form: { formError: string | null; busy: string | null };
  /** The action this button starts, for a form of more than one. */
  action?: string;
  busyLabel: string;
  note: string | null;
  children: ReactNode;
}) {
  return (
    <>
      <FormError message={form.formError} />
      <div className="flex flex-wrap items-center gap-4">
        <PrimaryButton size="inline" busy={form.busy === action} busyLabel={busyLabel}>
          {children}
        </PrimaryButton>
        <SavedNote note={note} />
      </div>
    </>
  );
}

/** The message of a failed call: the server's own when it sent one, else `fallback`. */
export function failureMessage(failure: unknown, fallback: string): string {
  const body = (failure as { serverMessage?: string } | null)?.serverMessage;
  return body ?? fallback;
}
