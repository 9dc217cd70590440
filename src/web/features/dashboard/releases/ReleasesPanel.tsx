import { useEffect, useState } from 'react';
import type { AdminTool } from '../../../../shared/dashboard';
import type { AdminRelease } from '../../../../shared/releases';
import { FormError } from '../../../components/form';
import { announce } from '../../../lib/announce';
import { dashboardApi } from '../api';
import { Card } from '../ui';
import { useDashboardData } from '../useDashboardData';
import { AdoptionPanel } from './AdoptionPanel';
import { NewReleaseForm } from './NewReleaseForm';
import { ReleaseCard } from './ReleaseCard';

/** A tool's releases, newest version first (the server's semver order), and a form for the next draft. */
export function ReleasesPanel({ tool }: { tool: AdminTool }) {
  const loaded = useDashboardData(() => dashboardApi.releases(tool.id), tool.id);
  const [releases, setReleases] = useState<AdminRelease[]>([]);
  const [opened, setOpened] = useState<string | null>(null);
  /** A draft just created: once listed, its summary takes focus (the form's button is far below it). */
  const [created, setCreated] = useState<AdminRelease | null>(null);
  useEffect(() => {
    if (loaded.data) setReleases(loaded.data);
  }, [loaded.data]);
  useEffect(() => {
    if (!created || !releases.some((release) => release.id === created.id)) return;
    setCreated(null);
    const summary = document.querySelector<HTMLElement>(`[data-testid="release-${created.version}"] summary`);
    summary?.focus();
    summary?.scrollIntoView({ block: 'center' });
    announce(`Draft ${created.version} created.`);
  }, [created, releases]);

  const replace = (changed: AdminRelease) => {
    setReleases((current) => current.map((release) => (release.id === changed.id ? changed : release)));
    setOpened(changed.id);
  };
  useEffect(() => {
    if (loaded.data && opened === null && loaded.data[0]) setOpened(loaded.data[0].id);
  }, [loaded.data, opened]);

  /** The adoption figures are read again when a release is published, yanked or its rollout changes. */
  const rollouts = releases.map(
    (release) => `${release.state}:${release.rollout.state}:${release.rollout.percent}`,
  );
  return (
    <>
      <Card title="Releases" className="mt-4">
        <p className="mb-4 text-sm text-slate-700">
          Velopack package id: <span className="font-mono">{tool.packageId ?? tool.defaultPackageId}</span>. A
          draft takes files; a published release never changes them, and yanking takes it out of every feed at
          once.
        </p>
        <FormError message={loaded.error} />
        <div className="space-y-3">
          {releases.map((release) => (
            <ReleaseCard
              key={release.id}
              release={release}
              device={tool.device}
              open={release.id === opened}
              onChange={replace}
            />
          ))}
          {!loaded.loading && releases.length === 0 && (
            <p className="text-sm text-slate-600">No releases yet.</p>
          )}
        </div>
        <h3 className="mt-6 mb-3 text-sm font-semibold text-slate-900">New draft release</h3>
        <NewReleaseForm
          toolId={tool.id}
          device={tool.device}
          onCreated={(release) => {
            setOpened(release.id);
            setCreated(release);
            loaded.reload();
          }}
        />
      </Card>
      <AdoptionPanel toolId={tool.id} refresh={rollouts.join(',')} />
    </>
  );
}
