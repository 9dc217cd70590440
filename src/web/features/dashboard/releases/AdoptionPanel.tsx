import { useState } from 'react';
import type { VersionAdoption } from '../../../../shared/releases';
import { FormError } from '../../../components/form';
import { Select } from '../../../components/form/Select';
import { dashboardApi } from '../api';
import { type Column, DataTable } from '../DataTable';
import { Card } from '../ui';
import { useDashboardData } from '../useDashboardData';
import { AdoptionChart } from './AdoptionChart';

const shareText = (share: number) => `${(share * 100).toFixed(1)} %`;

const rolloutOf = (version: VersionAdoption) => {
  if (!version.rollout || version.releaseState !== 'published') return version.releaseState ?? 'not released';
  const { state, percent } = version.rollout;
  return state === 'complete' ? 'complete' : `${state} ${percent} %`;
};

const COLUMNS: Array<Column<VersionAdoption, never>> = [
  { key: 'version', label: 'Version', render: (row) => <span className="font-semibold">{row.version}</span> },
  { key: 'rollout', label: 'Rollout', render: rolloutOf },
  { key: 'machines', label: 'Machines', render: (row) => row.machines, className: 'tabular-nums' },
  { key: 'share', label: 'Share', render: (row) => shareText(row.share), className: 'tabular-nums' },
  { key: 'offered', label: 'Offered', render: (row) => row.offered, className: 'tabular-nums' },
  { key: 'downloaded', label: 'Downloaded', render: (row) => row.downloaded, className: 'tabular-nums' },
  { key: 'running', label: 'Running', render: (row) => row.running, className: 'tabular-nums' },
];

/**
 * Which versions the tool's machines run (those seen within 30 days) and how far each release has got, with a chart
 * of one release's machines per day: the figures `releases adoption` prints. `refresh` reloads them (a rollout
 * changed).
 */
export function AdoptionPanel({ toolId, refresh }: { toolId: string; refresh: string }) {
  const loaded = useDashboardData(() => dashboardApi.adoption(toolId), `${toolId}:${refresh}`);
  const [chosen, setChosen] = useState('');
  const figures = loaded.data;
  const released = figures?.versions.filter((version) => version.releaseId !== null) ?? [];
  const charted = released.find((version) => version.version === chosen) ?? released[0];
  return (
    <Card title="Adoption" className="mt-4">
      <FormError message={loaded.error} />
      {figures && (
        <div className="space-y-4">
          <p className="text-sm text-slate-700" data-testid="adoption-summary">
            {figures.activeMachines} {figures.activeMachines === 1 ? 'machine' : 'machines'} seen within 30
            days, {figures.unknownVersion} without a reported version. Offered, downloaded and running count
            every machine that ever was.
          </p>
          <DataTable
            caption="Versions the tool’s machines run"
            columns={COLUMNS}
            rows={figures.versions}
            rowKey={(row) => row.version}
            empty="No release is published and no machine has reported a version yet."
          />
          {charted && (
            <div className="space-y-2">
              <div className="flex flex-wrap items-center gap-3">
                <h3 className="text-sm font-semibold text-slate-900" id="adoption-chart-title">
                  {charted.version}, last 30 days
                </h3>
                {released.length > 1 && (
                  <div className="w-40">
                    <Select
                      id="adoption-version"
                      aria-label="Release to chart"
                      value={charted.version}
                      onValueChange={setChosen}
                      options={released.map((version) => version.version)}
                    />
                  </div>
                )}
              </div>
              <AdoptionChart version={charted.version} days={charted.days} />
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
