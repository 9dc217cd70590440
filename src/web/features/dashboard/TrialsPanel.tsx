import type { AdminTrial } from '../../../shared/dashboard';
import type { TrialFigures } from '../../../shared/trials';
import { Button, FormError } from '../../components/form';
import { announce } from '../../lib/announce';
import { dashboardApi } from './api';
import { Card, formatDateTime, StatusBadge } from './ui';
import { useDashboardData } from './useDashboardData';
import { useRowAction } from './useRowAction';

/** How many days "Extend" adds; the command line takes any number. */
const EXTEND_DAYS = 7;

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)} %`);

/** Trials started, running, bought and the share bought: Overview's (every tool) and a tool page's. */
export function TrialFiguresList({ figures }: { figures: TrialFigures }) {
  const items: Array<[string, string | number]> = [
    ['Started', figures.started],
    ['Running', figures.running],
    ['Bought', figures.converted],
    ['Conversion', percent(figures.conversionRate)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-slate-600">{label}</dt>
          <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A tool's free trials: the figures, and each trial with "Extend" and "End" (audited by the server). */
export function TrialsPanel({ toolId }: { toolId: string }) {
  const { data, error, reload } = useDashboardData(() => dashboardApi.toolTrials(toolId), `trials-${toolId}`);
  const { busy, error: failure, run } = useRowAction();
  const act = (key: string, action: () => Promise<unknown>, done: string) =>
    run(key, async () => {
      await action();
      announce(done);
      reload();
    });
  return (
    <Card title="Free trials">
      <FormError message={error} />
      {data && (
        <div className="space-y-4">
          <TrialFiguresList figures={data.figures} />
          {data.trials.length === 0 ? (
            <p className="text-sm text-slate-600">No trials yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
              {data.trials.map((trial) => (
                <TrialRow key={trial.id} trial={trial} busy={busy} act={act} />
              ))}
            </ul>
          )}
        </div>
      )}
      <FormError message={failure} />
    </Card>
  );
}

function TrialRow({
  trial,
  busy,
  act,
}: {
  trial: AdminTrial;
  busy: string | null;
  act: (key: string, action: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
      <span className="min-w-0">
        <span className="flex flex-wrap items-center gap-2">
          <StatusBadge status={trial.state} />
          <span className="font-medium break-all text-slate-900">{trial.customerEmail}</span>
        </span>
        <span className="block text-slate-600">
          Started {formatDateTime(trial.startedAt)}
          {trial.expiresAt && trial.state !== 'bought' && ` · ends ${formatDateTime(trial.expiresAt)}`}
        </span>
      </span>
      {trial.state !== 'bought' && (
        <span className="flex gap-2">
          <Button
            variant="secondary"
            busy={busy === `extend-${trial.id}`}
            aria-label={`Extend the trial of ${trial.customerEmail} by ${EXTEND_DAYS} days`}
            onClick={() =>
              act(
                `extend-${trial.id}`,
                () => dashboardApi.extendTrial(trial.id, EXTEND_DAYS),
                `Trial extended by ${EXTEND_DAYS} days.`,
              )
            }
          >
            Extend {EXTEND_DAYS} days
          </Button>
          {trial.state === 'running' && (
            <Button
              variant="secondary"
              busy={busy === `end-${trial.id}`}
              aria-label={`End the trial of ${trial.customerEmail} now`}
              onClick={() => act(`end-${trial.id}`, () => dashboardApi.endTrial(trial.id), 'Trial ended.')}
            >
              End now
            </Button>
          )}
        </span>
      )}
    </li>
  );
}
