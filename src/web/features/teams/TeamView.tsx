import { MailPlus, UserPlus } from 'lucide';
import { useId, useRef, useState } from 'react';
import { CONTACT_MESSAGES, EMAIL_PATTERN } from '../../../shared/contact';
import { MAX_LENGTH } from '../../../shared/limits';
import type { PendingInvitation, Team } from '../../../shared/teams';
import { FormError, TextField, useForm } from '../../components/form';
import { busyButtonProps, quietSmallButton } from '../../components/form/buttons';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { focusLost } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { MemberList, type TeamMember } from './MemberList';
import { RemoveMemberDialog } from './RemoveMemberDialog';

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
  const free = team.seats - team.seatsUsed;

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
        <button type="submit" {...busyButtonProps(form.busy !== null)} className={`${quietSmallButton} mt-2`}>
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
                  className={`${quietSmallButton} mt-2`}
                >
                  {cancelling === invitation.id ? 'Cancelling...' : 'Cancel invitation'}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      <MemberList
        members={team.members}
        onRemove={(member) => {
          removal.clear();
          setRemoving(member);
        }}
      />

      <button
        type="button"
        data-add-seats
        {...busyButtonProps(addSeatsBusy, onAddSeats)}
        className={`${quietSmallButton} mt-4`}
      >
        <Icon node={UserPlus} className="size-4" />
        Add seats
      </button>

      <RemoveMemberDialog
        member={removing}
        busy={removal.busy}
        error={removal.error}
        onCancel={() => setRemoving(null)}
        onConfirm={remove}
        returnFocus={() => document.getElementById(emailId)}
      />
    </section>
  );
}
