import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { EMAIL_TOPIC_LABELS, type EmailTopic } from '../../../shared/account';
import { FormError, PrimaryButton } from '../../components/form';
import { announce } from '../../lib/announce';
import { api } from '../../lib/api';
import { failureMessage } from './SavedNote';

type State =
  | { step: 'loading' }
  | { step: 'invalid'; message: string }
  | { step: 'ask'; topic: EmailTopic; busy: boolean; error: string | null }
  | { step: 'done'; topic: EmailTopic };

const INVALID = 'This unsubscribe link is not valid.';
const tokenOf = () => new URLSearchParams(window.location.search).get('token') ?? '';
const path = (token: string) => `/api/account/unsubscribe?token=${encodeURIComponent(token)}`;

/**
 * The page an email's unsubscribe link opens, signed in or not: it says which emails the link turns off, and only
 * the button does it (a GET changes nothing, so a mail scanner that follows links unsubscribes nobody).
 */
export function UnsubscribePanel() {
  const [state, setState] = useState<State>({ step: 'loading' });

  useEffect(() => {
    const token = tokenOf();
    // An address without a token (typed, or cut short by a mail program) is answered here, without a 400.
    if (!token) {
      setState({ step: 'invalid', message: INVALID });
      return;
    }
    api.get<{ topic: EmailTopic }>(path(token)).then(
      ({ topic }) => setState({ step: 'ask', topic, busy: false, error: null }),
      (failure: unknown) =>
        setState({
          step: 'invalid',
          message: failureMessage(failure, 'This unsubscribe link is not valid.'),
        }),
    );
  }, []);

  const confirm = async (topic: EmailTopic) => {
    setState({ step: 'ask', topic, busy: true, error: null });
    try {
      await api.post(path(tokenOf()));
      setState({ step: 'done', topic });
      announce('You are unsubscribed.');
    } catch (failure) {
      setState({
        step: 'ask',
        topic,
        busy: false,
        error: failureMessage(failure, 'That did not work. Please try again.'),
      });
    }
  };

  if (state.step === 'loading') return <p className="text-slate-600">Checking your link...</p>;
  if (state.step === 'invalid') return <FormError message={state.message} />;
  const label = EMAIL_TOPIC_LABELS[state.topic];
  return (
    <div className="space-y-5">
      {state.step === 'ask' ? (
        <>
          <p className="text-lg text-slate-800">
            This link turns off one kind of email: <strong className="font-semibold">{label}</strong>. Codes,
            purchases, licenses, invoices and notices about your account are still sent.
          </p>
          <FormError message={state.error} />
          <PrimaryButton
            size="inline"
            type="button"
            busy={state.busy}
            busyLabel="Unsubscribing..."
            onClick={() => void confirm(state.topic)}
          >
            Unsubscribe
          </PrimaryButton>
        </>
      ) : (
        <p className="text-lg text-slate-800">
          Done: you will no longer get emails about{' '}
          <strong className="font-semibold">{label.toLowerCase()}</strong>.
        </p>
      )}
      <p className="text-slate-700">
        Turn it back on, or change your other emails, on your{' '}
        <Link
          to="/account#email-preferences"
          className="font-semibold text-brand-700 underline underline-offset-4"
        >
          Account
        </Link>{' '}
        page (sign in first).
      </p>
    </div>
  );
}
