import { useState } from 'react';
import { useLocation } from 'wouter';
import type { AdminTool, ToolInput } from '../../../shared/dashboard';
import { FormError } from '../../components/form';
import { dashboardApi } from './api';
import { EditionsPanel } from './EditionsPanel';
import { BackLink } from './links';
import { ReleasesPanel } from './releases/ReleasesPanel';
import { ToolForm } from './ToolForm';
import { TrialsPanel } from './TrialsPanel';
import { UploadPanel } from './UploadPanel';
import { ActionNotice, Card, ScreenTitle, useNotice, useScreenTitle } from './ui';
import { useDashboardData, useRecordId } from './useDashboardData';

/** Create or edit a tool, with the command line's rules; price changes ask for a fresh authenticator code. */
export function ToolEditScreen() {
  const id = useRecordId() || undefined;
  const creating = id === undefined;
  useScreenTitle(creating ? 'Add a tool' : 'Edit tool');
  const [, navigate] = useLocation();
  const existing = useDashboardData(
    () => (creating ? Promise.resolve(null) : dashboardApi.tool(id)),
    id ?? 'new',
  );
  const [saved, setSaved] = useState<AdminTool | null>(null);
  const [notice, setNotice] = useNotice();
  const tool = saved ?? existing.data;

  const save = async (input: ToolInput) => {
    setNotice(null);
    if (creating) {
      navigate(`/admin/tools/${(await dashboardApi.createTool(input)).id}`);
      return null;
    }
    const stored = await dashboardApi.updateTool(id, input);
    setSaved(stored);
    setNotice('Saved. The site shows the change now.');
    return stored;
  };

  return (
    <>
      <BackLink to="/admin/tools">Tools</BackLink>
      <ScreenTitle title={creating ? 'Add a tool' : (tool?.name ?? 'Edit tool')} />
      <FormError message={existing.error} />
      <ActionNotice message={notice} />
      {(creating || tool) && (
        <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
          <Card>
            <ToolForm key={tool?.id ?? 'new'} tool={tool ?? null} onSave={save} />
          </Card>
          {tool && <UploadPanel tool={tool} onUploaded={setSaved} />}
          {tool && (
            <div className="lg:col-span-2">
              <EditionsPanel tool={tool} />
            </div>
          )}
          {tool && (
            <div className="lg:col-span-2">
              <TrialsPanel toolId={tool.id} />
            </div>
          )}
        </div>
      )}
      {tool && <ReleasesPanel tool={tool} />}
    </>
  );
}
