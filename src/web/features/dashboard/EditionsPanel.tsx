import { useEffect, useRef, useState } from 'react';
import type { AdminTool } from '../../../shared/dashboard';
import type {
  AdminEdition,
  DashboardEditionChanges,
  DashboardNewEdition,
} from '../../../shared/edition-schemas';
import { formatSubunits } from '../../../shared/money';
import { Button, FormError } from '../../components/form';
import { dashboardApi } from './api';
import { EditionForm } from './EditionForm';
import { Card, StatusBadge, useNotice } from './ui';
import { useDashboardData } from './useDashboardData';

/** The Edit button of an edition's row, which focus returns to once its form closes. */
const editButton = (editionId: string) =>
  document.querySelector<HTMLElement>(`[data-edit-edition="${CSS.escape(editionId)}"]`);
const ADD_BUTTON = 'add-edition';

/**
 * A tool's editions (decision 056), lowest first: what each costs and adds, the one its trial runs as, and a form to
 * add one above them or change one. A saved change is said on the panel and through the live region, and focus goes
 * to the edition just saved.
 */
export function EditionsPanel({ tool }: { tool: AdminTool }) {
  const loaded = useDashboardData(() => dashboardApi.editions(tool.id), `editions-${tool.id}`);
  const [saved, setSaved] = useState<AdminEdition[] | null>(null);
  const editions = saved ?? loaded.data;
  // The edition whose form is open ('new': the form of a new one), or none.
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useNotice();

  // Where focus goes once the form has closed and the list is drawn again (the form took focus with it).
  const focusNext = useRef<(() => HTMLElement | null) | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    target?.()?.focus();
  });
  const close = (focusOn: () => HTMLElement | null) => {
    focusNext.current = focusOn;
    setEditing(null);
  };
  const save = async (
    input: DashboardNewEdition | DashboardEditionChanges,
    edition: AdminEdition | null,
  ): Promise<void> => {
    const answer = edition
      ? await dashboardApi.editEdition(tool.id, edition.id, input)
      : await dashboardApi.addEdition(tool.id, input as DashboardNewEdition);
    const now = edition ? answer.find((each) => each.id === edition.id) : answer.at(-1);
    setSaved(answer);
    setNotice(edition ? `Saved ${now?.name ?? 'the edition'}.` : `Added ${now?.name ?? 'the edition'}.`);
    close(() => (now ? editButton(now.id) : null));
  };

  return (
    <Card title="Editions">
      <p className="mb-3 text-sm text-slate-600">
        A buyer chooses an edition at checkout and may upgrade to a higher one later for the difference in
        price. Without editions the tool is sold at its own prices.
      </p>
      <FormError message={loaded.error} />
      {notice && <p className="mb-3 rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900">{notice}</p>}
      {editions && (
        <div className="space-y-3">
          {editions.length === 0 ? (
            <p className="text-sm text-slate-600">No editions.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
              {editions.map((edition) =>
                editing === edition.id ? (
                  <li key={edition.id} className="p-2">
                    <EditionForm
                      edition={edition}
                      toolActivationLimit={tool.activationLimit}
                      onSave={(input) => save(input, edition)}
                      onCancel={() => close(() => editButton(edition.id))}
                    />
                  </li>
                ) : (
                  <EditionRow
                    key={edition.id}
                    edition={edition}
                    toolActivationLimit={tool.activationLimit}
                    onEdit={() => setEditing(edition.id)}
                  />
                ),
              )}
            </ul>
          )}
          {editing === 'new' ? (
            <EditionForm
              edition={null}
              toolActivationLimit={tool.activationLimit}
              onSave={(input) => save(input, null)}
              onCancel={() => close(() => document.getElementById(ADD_BUTTON))}
            />
          ) : (
            <Button id={ADD_BUTTON} variant="secondary" onClick={() => setEditing('new')}>
              Add an edition
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}

function EditionRow({
  edition,
  toolActivationLimit,
  onEdit,
}: {
  edition: AdminEdition;
  toolActivationLimit: number;
  onEdit: () => void;
}) {
  const devices = edition.deviceLimit ?? toolActivationLimit;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
      <span className="min-w-0">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900">{edition.name}</span>
          {edition.trial && <StatusBadge status="trial edition" />}
        </span>
        <span className="block text-slate-700 tabular-nums">
          {formatSubunits(edition.priceInrPaise, 'INR')} ·{' '}
          {edition.priceUsdCents === null
            ? 'USD: the INR price / 75'
            : formatSubunits(edition.priceUsdCents, 'USD')}
        </span>
        <span className="block text-slate-600">
          {edition.entitlements.length ? `Unlocks ${edition.entitlements.join(', ')}` : 'No entitlements'} ·
          up to {devices} {devices === 1 ? 'device' : 'devices'}
          {edition.deviceLimit === null ? " (the tool's limit)" : ''}
        </span>
      </span>
      <Button
        variant="secondary"
        data-edit-edition={edition.id}
        aria-label={`Edit ${edition.name}`}
        onClick={onEdit}
      >
        Edit
      </Button>
    </li>
  );
}
