import { CircleAlert, CircleCheck } from 'lucide';
import type { Ref } from 'react';
import { Icon } from '../../components/Icon';
import type { ContactResultInfo } from './useContactForm';

/** The box that replaces the form after a send: green for success, red for an error (docs/product.md §2). */
export function ContactResult({
  info,
  success,
  resultRef,
  onBack,
}: {
  info: ContactResultInfo;
  success: boolean;
  resultRef: Ref<HTMLDivElement>;
  onBack: () => void;
}) {
  return (
    <div
      ref={resultRef}
      tabIndex={-1}
      role={success ? 'status' : 'alert'}
      data-testid="contact-result"
      className={`rounded-xl border p-6 sm:p-8 ${
        success ? 'border-green-200 bg-green-50 text-green-900' : 'border-red-200 bg-red-50 text-red-900'
      }`}
    >
      <div className="flex items-start gap-3">
        {success ? (
          <Icon node={CircleCheck} className="mt-0.5 size-6 shrink-0 text-green-700" />
        ) : (
          <Icon node={CircleAlert} className="mt-0.5 size-6 shrink-0 text-red-700" />
        )}
        <div className="space-y-2">
          <p className="text-lg font-semibold">
            {success ? 'Thank you — your message has been sent.' : 'Your message could not be sent.'}
          </p>
          <p>{info.msg}</p>
          <button
            type="button"
            onClick={onBack}
            className={`mt-2 inline-flex items-center rounded-lg border bg-white px-4 py-2 text-sm font-semibold transition-colors ${
              success
                ? 'border-green-300 text-green-900 hover:bg-green-100'
                : 'border-red-300 text-red-900 hover:bg-red-100'
            }`}
          >
            {success ? 'Send another message' : 'Try again'}
          </button>
        </div>
      </div>
    </div>
  );
}
