import { type FormEvent, useState } from 'react';
import type { RolloutChangeInput } from '../../../../shared/release-schemas';
import type { AdminRelease, ReleaseRollout } from '../../../../shared/releases';
import { Button, FormError, TextField } from '../../../components/form';
import { useAction } from '../../../components/form/useAction';
import { dashboardApi, problem } from '../api';
import { AuthenticatorCodeField } from '../fields';

/** "10 % of machines, rolling", "halted at 50 %", "complete": as `releases rollout` prints it. */
export const rolloutText = (rollout: ReleaseRollout) =>
  rollout.state === 'complete'
    ? 'complete: every machine is offered it'
    : rollout.state === 'halted'
      ? `halted at ${rollout.percent} %: no further machine is offered it`
      : `${rollout.percent} % of machines, rolling`;

/** What publishing did, said through the live region: "1.1.0 is published to 10 % of machines." */
const publishedText = (release: AdminRelease) =>
  `${release.version} is published to ${
    release.rollout.state === 'complete' ? 'every machine' : `${release.rollout.percent} % of machines`
  }.`;

/** Wide enough for its label on one line, so the fields beside it line up. */
const codeField = (release: AdminRelease, what: string, code: string, setCode: (code: string) => void) => (
  <AuthenticatorCodeField
    id={`release-${release.id}-code`}
    label={`Code from your authenticator app (to ${what})`}
    value={code}
    onValueChange={setCode}
    className="w-full sm:w-96"
  />
);

/**
 * Publish a draft (at a share of machines, with Sparkle's own schedule and the stuck threshold if wanted), change a
 * published release's rollout, or yank it: each changes what buyers' updaters see, so each asks for a fresh code
 * from the authenticator app.
 */
export function ReleaseActions({
  release,
  onChange,
}: {
  release: AdminRelease;
  onChange: (release: AdminRelease) => void;
}) {
  if (release.state === 'yanked') {
    return <p className="text-sm text-slate-700">Yanked: in no feed, no update check and not on My Tools.</p>;
  }
  return release.state === 'draft' ? (
    <PublishForm release={release} onChange={onChange} />
  ) : (
    <RolloutForm release={release} onChange={onChange} />
  );
}

function PublishForm({
  release,
  onChange,
}: {
  release: AdminRelease;
  onChange: (release: AdminRelease) => void;
}) {
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState('100');
  const [phasedInterval, setPhasedInterval] = useState('');
  const [haltIfStuck, setHaltIfStuck] = useState('');
  const { run, busy, error } = useAction(problem);
  const idOf = (field: string) => `release-${release.id}-${field}`;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // This form goes once the release is published: focus goes to the release's summary line, so it stays on the
    // release just changed (issue 63).
    const summary = event.currentTarget.closest('details')?.querySelector('summary');
    await run(async () => {
      const published = await dashboardApi.publishRelease(release.id, {
        code,
        rolloutPercent: percent.trim(),
        phasedInterval: phasedInterval.trim() || null,
        haltIfStuckPercent: haltIfStuck.trim() || null,
      });
      onChange(published);
      setCode('');
      summary?.focus();
      return publishedText(published);
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          id={idOf('rollout')}
          label="Offer it first to (% of machines)"
          inputMode="numeric"
          value={percent}
          onValueChange={setPercent}
          hint="100 publishes it to everyone; widen it later."
        />
        <TextField
          id={idOf('phased')}
          label="Sparkle phased interval (optional)"
          placeholder="e.g. 1d"
          value={phasedInterval}
          onValueChange={setPhasedInterval}
          hint="Sparkle’s 7 groups of Macs, one interval apart."
        />
        <TextField
          id={idOf('halt-if-stuck')}
          label="Halt if stuck above (%, optional)"
          inputMode="numeric"
          placeholder="e.g. 20"
          value={haltIfStuck}
          onValueChange={setHaltIfStuck}
          hint="Machines still on the old version a day after downloading it."
        />
      </div>
      <div className="flex flex-wrap items-end gap-3">
        {codeField(release, 'publish', code, setCode)}
        <Button type="submit" busy={busy}>
          Publish {release.version}
        </Button>
      </div>
      <FormError message={error} />
    </form>
  );
}

function RolloutForm({
  release,
  onChange,
}: {
  release: AdminRelease;
  onChange: (release: AdminRelease) => void;
}) {
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState('');
  const { run, busy, error } = useAction(problem);
  const { rollout } = release;
  const change = (next: RolloutChangeInput | 'yank') =>
    run(async () => {
      onChange(
        next === 'yank'
          ? await dashboardApi.yankRelease(release.id, code)
          : await dashboardApi.changeRollout(release.id, code, next),
      );
      setCode('');
      setPercent('');
    });
  return (
    <section aria-label={`Rollout of ${release.version}`} className="space-y-3">
      <h3 className="text-sm font-semibold text-slate-900">Rollout</h3>
      <p className="text-sm text-slate-700" data-testid="rollout-state">
        {rolloutText(rollout)}
        {rollout.phasedIntervalSeconds !== null &&
          `; Sparkle’s phased interval ${Math.round(rollout.phasedIntervalSeconds / 3600)} h`}
        {rollout.haltIfStuckPercent !== null &&
          `; the watch halts it when more than ${rollout.haltIfStuckPercent} % of the machines that downloaded it are stuck`}
        .
      </p>
      <form
        noValidate
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          // Enter submits the form; only a rolling release has a share to widen. Halted or complete, the form's
          // actions are each their own button, and Enter in the code field chooses none of them (issue 63).
          if (rollout.state === 'rolling') void change({ action: 'percent', percent: percent.trim() });
        }}
      >
        {codeField(release, 'change it', code, setCode)}
        {rollout.state === 'rolling' && (
          <>
            <TextField
              id={`release-${release.id}-widen`}
              label="Widen to (% of machines)"
              inputMode="numeric"
              value={percent}
              onValueChange={setPercent}
              className="w-full sm:w-48"
            />
            <Button type="submit" busy={busy}>
              Widen
            </Button>
          </>
        )}
        {rollout.state === 'halted' ? (
          <Button variant="secondary" busy={busy} onClick={() => void change({ action: 'resume' })}>
            Resume
          </Button>
        ) : (
          <Button variant="secondary" busy={busy} onClick={() => void change({ action: 'halt' })}>
            Halt
          </Button>
        )}
        {rollout.state !== 'complete' && (
          <Button variant="secondary" busy={busy} onClick={() => void change({ action: 'complete' })}>
            Complete
          </Button>
        )}
        <Button variant="danger" busy={busy} onClick={() => void change('yank')}>
          Yank {release.version}
        </Button>
      </form>
      <FormError message={error} />
    </section>
  );
}
