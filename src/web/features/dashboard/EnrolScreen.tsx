import { type FormEvent, useState } from 'react';
import type { EnrolmentStart } from '../../../shared/dashboard';
import { SITE } from '../../../shared/site';
import { Button, FormError } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { announce } from '../../lib/announce';
import { dashboardApi, problem } from './api';
import { AuthenticatorCodeField } from './fields';
import { GateShell } from './GateShell';
import { useScreenTitle } from './ui';

/** The secret in groups of four, as authenticator apps show it for typing. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

const secondaryClass =
  'inline-flex min-h-11 flex-1 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 text-center text-sm font-semibold text-brand-900 hover:bg-slate-50';

/** The recovery codes copied to the clipboard or saved as a text file, each said through the live region. */
function RecoveryCodesActions({ codes }: { codes: string[] }) {
  const [copyFailed, setCopyFailed] = useState(false);
  const text = `${SITE.name} dashboard recovery codes. Each signs in once.\n\n${codes.join('\n')}\n`;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => {
        setCopyFailed(false);
        announce('Recovery codes copied.');
      },
      () => {
        setCopyFailed(true);
        announce(COPY_FAILED);
      },
    );
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-3">
        <button type="button" className={secondaryClass} onClick={() => void copy()}>
          Copy the codes
        </button>
        <a
          className={secondaryClass}
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="dashboard-recovery-codes.txt"
          onClick={() => announce('Recovery codes downloaded as dashboard-recovery-codes.txt.')}
        >
          Download as a text file
        </a>
      </div>
      {copyFailed && <p className="text-sm text-red-800">{COPY_FAILED}</p>}
    </div>
  );
}

const COPY_FAILED = 'The codes could not be copied: download them or write them down instead.';

/**
 * First dashboard visit of a new operator: set up an authenticator app (QR code or the secret typed in), prove it
 * with one code, then keep the 10 recovery codes, shown only this once.
 */
export function EnrolScreen({ email, onDone }: { email: string; onDone: () => void }) {
  useScreenTitle('Set up two-step verification');
  const [setup, setSetup] = useState<EnrolmentStart | null>(null);
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { run, busy, error } = useAction(problem);

  const start = () => run(async () => setSetup(await dashboardApi.startEnrolment()));

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const confirmed = await run(async () =>
      setRecoveryCodes((await dashboardApi.confirmEnrolment(code)).recoveryCodes),
    );
    if (!confirmed) setCode('');
  };

  if (recoveryCodes) {
    return (
      <GateShell title="Save your recovery codes">
        <p className="text-slate-700">
          Each code signs you in once if your phone is lost. Keep them somewhere safe, away from the phone:
          they are not shown again.
        </p>
        <ol
          aria-label="Recovery codes"
          className="my-5 grid grid-cols-2 gap-2 font-mono text-base text-slate-900"
        >
          {recoveryCodes.map((value) => (
            <li key={value} className="rounded-md bg-slate-100 px-3 py-1.5 text-center">
              {value}
            </li>
          ))}
        </ol>
        <RecoveryCodesActions codes={recoveryCodes} />
        <Button className="mt-5 w-full" onClick={onDone}>
          I have saved them — open the dashboard
        </Button>
      </GateShell>
    );
  }

  return (
    <GateShell title="Set up two-step verification">
      <p className="text-slate-700">
        The dashboard asks for a code from an authenticator app (Google Authenticator, Microsoft
        Authenticator, 1Password and the like) every time <strong>{email}</strong> signs in.
      </p>
      {!setup ? (
        <>
          <FormError message={error} />
          <Button className="mt-5 w-full" busy={busy} onClick={start}>
            Show the setup code
          </Button>
        </>
      ) : (
        <form onSubmit={confirm} noValidate className="mt-5 space-y-4">
          <p className="text-slate-700">Scan this QR code with the app, or type the key below into it.</p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code to add this account to your authenticator app"
            width={200}
            height={200}
            className="mx-auto size-48 rounded-md border border-slate-200 bg-white p-1"
          />
          <p className="text-sm text-slate-700">
            Key:
            <code
              data-testid="setup-key"
              className="mt-1 block rounded bg-slate-100 px-2 py-1 font-mono text-base text-slate-900"
            >
              {grouped(setup.secret)}
            </code>
          </p>
          <AuthenticatorCodeField
            id="admin-enrol-code"
            label="The 6-digit code the app now shows"
            required
            value={code}
            onValueChange={setCode}
            error={error}
          />
          <Button type="submit" busy={busy} className="w-full">
            Turn on two-step verification
          </Button>
        </form>
      )}
    </GateShell>
  );
}
