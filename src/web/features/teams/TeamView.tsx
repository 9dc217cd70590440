import { MailPlus, UserMinus, UserPlus } from 'lucide';
import { useEffect, useId, useRef, useState } from 'react';
import { CONTACT_MESSAGES, EMAIL_PATTERN } from '../../../shared/contact';
import { MAX_LENGTH } from '../../../shared/limits';
import type { PendingInvitation, Team } from '../../../shared/teams';
import { Button, FormError, SecondaryButton, TextField, useForm } from '../../components/form';
import { busyButtonProps, smallButton } from '../../components/form/buttons';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { focusLost } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { formatDate } from '../../lib/dates';

/** A member of a team, as GET /api/teams/:licenseId lists them. */
export type TeamMember = Team['members'][number];

const quietButton = `${smallButton} border-slate-300 bg-white text-brand-800 hover:bg-slate-50`;
const dangerButton = `${smallButton} border-red-200 bg-white text-red-700 hover:bg-red-50`;

export const seatsLabel = (team: Pick<Team, 'seats' | 'seatsUsed'>) =>
  `${team.seatsUsed} of ${team.seats} ${team.seats === 1 ? 'seat' : 'seats'} used`;

/**
 * The team license a buyer owns, on its tool's card in My Tools (issue 54): seats used of the total, "Invite by
 * email" (an invitation holds a seat until it is accepted or cancelled), the pending invitations, the members with
 * their devices, "Remove" (after a confirmation) and "Add seats". The calls are the caller's; each settles once the
 * team has been read again, and fails with the server's answer.
 */
export function TeamView({
  team,
  onInvite,
  onCancelInvitation,
  onRemove,
  onAddSeats,
  addSeatsBusy = false,
}: {
  team: Team;
  /** The billing dialog for more seats is on its way (the catalogue's prices are being read). */
  addSeatsBusy?: boolean;
  onInvite: (email: string) => Promise<void>;
  onCancelInvitation: (invitation: PendingInvitation) => Promise<void>;
  onRemove: (member: TeamMember) => Promise<void>;
  onAddSeats: () => void;
}) {
  const prefix = useId();
  const emailId = `${prefix}-email`;
  const headingId = `${prefix}-team`;
  const form = useForm({ initial: { email: '' }, fields: ['email'] as const, idOf: () => emailId });
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const removal = useAction(
    (failure) =>
      (failure instanceof ApiError && failure.serverMessage) ||
      'The seat could not be taken back. Please try again.',
  );
  const panelRef = useRef<HTMLElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const free = team.seats - team.seatsUsed;

  // The confirmation starts on Cancel, the safe choice (as a device's Deactivate does).
  useEffect(() => {
    if (removing) confirmRef.current?.querySelector<HTMLElement>('[data-cancel]')?.focus();
  }, [removing]);

  const invite = form.submit({
    validate: ({ email }) =>
      !email.trim()
        ? { email: CONTACT_MESSAGES.emailRequired }
        : EMAIL_PATTERN.test(email.trim())
          ? {}
          : { email: CONTACT_MESSAGES.emailInvalid },
    send: async ({ email }) => {
      await onInvite(email.trim());
      form.set('email', '');
    },
    // A refusal (no free seat, already invited) is about the address typed: it goes on the field, which keeps focus.
    explain: (failure, onFields) => {
      if (onFields) return null;
      if (failure instanceof ApiError && failure.status < 500 && failure.serverMessage) {
        form.setErrors({ email: failure.serverMessage });
        return null;
      }
      return 'The invitation could not be sent. Please try again.';
    },
  });

  const cancelInvitation = async (invitation: PendingInvitation) => {
    setCancelling(invitation.id);
    try {
      await onCancelInvitation(invitation);
    } finally {
      setCancelling(null);
      // The row's button went with its row: the next invitation's Cancel, else the invitation field.
      window.setTimeout(() => {
        if (!focusLost()) return;
        const next = panelRef.current?.querySelector<HTMLElement>('[data-invitation] button');
        (next ?? document.getElementById(emailId))?.focus();
      });
    }
  };

  const remove = () => {
    if (!removing) return;
    void removal.run(async () => {
      await onRemove(removing);
      setRemoving(null);
    });
  };

  return (
    <section
      ref={panelRef}
      aria-labelledby={headingId}
      className="mb-6 rounded-xl border border-slate-200 bg-slate-50 p-4"
    >
      <div className="flex items-baseline justify-between gap-3">
        <h4 id={headingId} className="text-sm font-semibold text-brand-900">
          Team
        </h4>
        <p className="text-xs text-slate-600" data-testid="team-seats">
          {seatsLabel(team)}
        </p>
      </div>

      <form noValidate onSubmit={invite} className="mt-3">
        <TextField
          id={emailId}
          label="Invite by email"
          type="email"
          autoComplete="off"
          maxLength={MAX_LENGTH.email}
          value={form.values.email}
          onValueChange={form.change('email')}
          error={form.errors.email}
          hint={
            free > 0
              ? `One seat each: ${free} ${free === 1 ? 'seat is' : 'seats are'} free.`
              : 'Every seat is taken: add seats, or remove a member or cancel an invitation first.'
          }
        />
        <FormError message={form.formError} />
        <button type="submit" {...busyButtonProps(form.busy !== null)} className={`${quietButton} mt-2`}>
          <Icon node={MailPlus} className="size-4" />
          {form.busy ? 'Sending...' : 'Send invitation'}
        </button>
      </form>

      {team.invitations.length > 0 && (
        <>
          <h4 className="mt-4 text-sm font-semibold text-brand-900">Pending invitations</h4>
          <ul className="mt-2 divide-y divide-slate-200">
            {team.invitations.map((invitation) => (
              <li key={invitation.id} data-invitation className="py-3 first:pt-0 last:pb-0">
                <p className="text-sm break-all font-semibold text-slate-900">{invitation.email}</p>
                <p className="mt-0.5 text-xs text-slate-600">
                  Invited {formatDate(invitation.invitedAt)} · link works until{' '}
                  {formatDate(invitation.expiresAt)}
                </p>
                <button
                  type="button"
                  aria-label={`Cancel the invitation to ${invitation.email}`}
                  {...busyButtonProps(cancelling === invitation.id, () => void cancelInvitation(invitation))}
                  className={`${quietButton} mt-2`}
                >
                  {cancelling === invitation.id ? 'Cancelling...' : 'Cancel invitation'}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      <h4 className="mt-4 text-sm font-semibold text-brand-900">Members</h4>
      <ul className="mt-2 divide-y divide-slate-200">
        {team.members.map((member) => (
          <li key={member.memberId} data-member className="py-3 first:pt-0 last:pb-0">
            <p className="text-sm font-semibold text-slate-900">
              {member.name}
              {member.isOwner && <span className="font-normal text-slate-600"> (you, owner)</span>}
            </p>
            <p className="mt-0.5 text-xs break-all text-slate-600">{member.email}</p>
            <p className="text-xs text-slate-600">Joined {formatDate(member.joinedAt)}</p>
            {member.devices.length === 0 ? (
              <p className="mt-1 text-xs text-slate-600">No device activated yet.</p>
            ) : (
              <ul aria-label={`Devices of ${member.name}`} className="mt-1">
                {member.devices.map((device) => (
                  <li key={device.id} className="text-xs text-slate-700">
                    {device.name ?? 'Unnamed device'} · last seen{' '}
                    {formatDate(device.lastSeenAt, 'dayAndTime')}
                  </li>
                ))}
              </ul>
            )}
            {!member.isOwner && (
              <button
                type="button"
                aria-label={`Remove ${member.name} from the team`}
                onClick={() => {
                  removal.clear();
                  setRemoving(member);
                }}
                className={`${dangerButton} mt-2`}
              >
                <Icon node={UserMinus} className="size-4" />
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>

      <button
        type="button"
        data-add-seats
        {...busyButtonProps(addSeatsBusy, onAddSeats)}
        className={`${quietButton} mt-4`}
      >
        <Icon node={UserPlus} className="size-4" />
        Add seats
      </button>

      <Modal
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={removing ? `Remove ${removing.name}?` : ''}
        returnFocus={() => document.getElementById(emailId)}
      >
        <p className="text-sm text-slate-700">
          {removing?.name} ({removing?.email}) loses the seat at once: their key stops working on every
          device, and the seat is free to give to someone else.
        </p>
        <FormError message={removal.error} />
        <div ref={confirmRef} className="mt-5 flex flex-col justify-end gap-3 md:flex-row">
          <SecondaryButton cancel onClick={() => setRemoving(null)}>
            Cancel
          </SecondaryButton>
          <Button variant="danger" busy={removal.busy} onClick={remove}>
            Remove
          </Button>
        </div>
      </Modal>
    </section>
  );
}
