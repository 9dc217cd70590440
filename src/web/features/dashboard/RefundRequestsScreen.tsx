import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatSubunits } from '../../../shared/money';
import { REFUND_REASON_LABELS } from '../../../shared/refund-requests';
import { Button, FormError, TextAreaField } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';
import { AuthenticatorCodeField } from './fields';
import { Card, formatDateTime, ScreenTitle, useNotice, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

type Decision = 'approve' | 'decline';

/** The buttons that open a request's decision, each naming (data-opens) the field its form focuses. */
const OPENERS: ReadonlyArray<[Decision, string]> = [
  ['approve', 'Approve…'],
  ['decline', 'Decline…'],
];

/**
 * The buyers' open refund requests (from their order pages): approve (the order is refunded, which asks a fresh
 * code) or decline with the reason the buyer is emailed. The same operations as `refunds requests …`.
 */
export function RefundRequestsScreen() {
  useScreenTitle('Refund requests');
  const { data, error, reload } = useDashboardData(dashboardApi.refundRequests, 'refund-requests');
  const [acting, setActing] = useState<{ id: string; kind: Decision } | null>(null);
  const [text, setText] = useState('');
  const { run, busy, error: actionError, clear } = useAction(problem);
  const [done, setDone] = useNotice();
  const doneRef = useRef<HTMLParagraphElement>(null);
  /** How many requests were decided here: each time, the notice takes focus (its words may be the same). */
  const [decided, setDecided] = useState(0);
  /** The Approve… or Decline… button whose step was cancelled, to take focus back. */
  const reopen = useRef<string | null>(null);

  // Each step moves focus to what it opened or left: the field Approve… or Decline… opened, the button that
  // opened it after Cancel, the notice of what was done once the request has left the list (issue 63).
  useEffect(() => {
    if (acting) document.getElementById(`${acting.kind}-${acting.id}`)?.focus();
    else if (reopen.current) document.querySelector<HTMLElement>(`[data-opens="${reopen.current}"]`)?.focus();
    reopen.current = null;
  }, [acting]);
  useEffect(() => {
    if (decided > 0) doneRef.current?.focus();
  }, [decided]);

  const start = (id: string, kind: Decision) => {
    setActing({ id, kind });
    setText('');
    clear();
  };
  const cancel = () => {
    if (acting) reopen.current = `${acting.kind}-${acting.id}`;
    setActing(null);
  };

  const act = async (event: FormEvent) => {
    event.preventDefault();
    if (!acting) return;
    await run(async () => {
      const answer =
        acting.kind === 'approve'
          ? await dashboardApi.approveRefundRequest(acting.id, text.trim())
          : await dashboardApi.declineRefundRequest(acting.id, text);
      setDone(answer.message);
      setDecided((count) => count + 1);
      setActing(null);
      setText('');
      reload();
    });
  };

  return (
    <>
      <ScreenTitle title="Refund requests" />
      <FormError message={error} />
      {done && (
        <p ref={doneRef} tabIndex={-1} className="mb-4 text-sm text-green-800">
          {done}
        </p>
      )}
      {data && (
        <Card title="Open requests">
          {data.length === 0 ? (
            <p className="text-sm text-slate-600">No open refund requests.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.map((request) => (
                <li key={request.id} className="space-y-2 py-3 text-sm">
                  <p className="font-medium text-slate-900">
                    {request.email} · {request.tool} · {formatSubunits(request.amount, request.currency)}
                  </p>
                  <p className="text-slate-700">
                    {REFUND_REASON_LABELS[request.reason]} · asked {formatDateTime(request.createdAt)}
                  </p>
                  <p className="break-words whitespace-pre-line text-slate-700">{request.description}</p>
                  {acting?.id === request.id ? (
                    <form
                      noValidate
                      onSubmit={act}
                      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
                    >
                      {acting.kind === 'decline' ? (
                        <TextAreaField
                          id={`decline-${request.id}`}
                          label="Reason the buyer will read"
                          required
                          rows={3}
                          maxLength={1000}
                          value={text}
                          onValueChange={setText}
                        />
                      ) : (
                        <AuthenticatorCodeField
                          id={`approve-${request.id}`}
                          required
                          value={text}
                          onValueChange={setText}
                        />
                      )}
                      <FormError message={actionError} />
                      <div className="flex flex-wrap gap-2">
                        <Button
                          type="submit"
                          variant={acting.kind === 'approve' ? 'danger' : 'primary'}
                          busy={busy}
                        >
                          {acting.kind === 'approve' ? 'Approve and refund' : 'Decline request'}
                        </Button>
                        <Button variant="secondary" onClick={cancel}>
                          Cancel
                        </Button>
                      </div>
                    </form>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      {OPENERS.map(([kind, label]) => (
                        <Button
                          key={kind}
                          variant="secondary"
                          data-opens={`${kind}-${request.id}`}
                          onClick={() => start(request.id, kind)}
                        >
                          {label}
                        </Button>
                      ))}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
    </>
  );
}
