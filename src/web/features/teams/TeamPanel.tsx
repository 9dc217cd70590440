import type { ReactNode } from 'react';
import type { Team } from '../../../shared/teams';
import { FormError } from '../../components/form';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { type Query, useQuery } from '../../lib/useQuery';
import { teamsApi } from './api';
import { TeamView } from './TeamView';

const failureText = (failure: unknown, fallback: string) =>
  (failure instanceof ApiError && failure.serverMessage) || fallback;

/** A team license's members, invitations and seats (GET /api/teams/:licenseId). */
export function useTeam(licenseId: string): Query<Team> {
  return useQuery(
    licenseId,
    () => teamsApi.team(licenseId),
    (failure) => console.error('Failed to load the team', failure),
  );
}

/** The panel's "Add seats" button, which focus goes back to when the checkout it opened closes. */
export const addSeatsButton = (licenseId: string) =>
  document.querySelector<HTMLElement>(`[data-team="${CSS.escape(licenseId)}"] [data-add-seats]`);

/**
 * The owner's team panel on a tool's card in My Tools (loaded only for a tool whose license is a team the buyer
 * owns): the team as `useTeam` reads it, read again after every change. "Add seats" is the checkout's, which the
 * page joins to the panel (features do not import each other): `addSeats` opens it, and `children`, its dialog,
 * is drawn after the team.
 */
export function TeamPanel({
  licenseId,
  team: { data: team, error, reload },
  addSeats,
  children,
}: {
  licenseId: string;
  team: Query<Team>;
  addSeats: { opening: boolean; open: () => void };
  children?: ReactNode;
}) {
  if (error && !team) return <FormError message="Your team could not be loaded. Please reload the page." />;
  if (!team) return <p className="mb-6 text-sm text-slate-600">Loading your team...</p>;
  return (
    <div data-team={licenseId}>
      <TeamView
        team={team}
        addSeatsBusy={addSeats.opening}
        onInvite={async (email) => {
          await teamsApi.invite(licenseId, email);
          await reload();
          toast.success(`Invitation sent to ${email}.`);
        }}
        onCancelInvitation={async (invitation) => {
          try {
            await teamsApi.cancelInvitation(licenseId, invitation.id);
            await reload();
            toast.success(`The invitation to ${invitation.email} is cancelled: its seat is free.`);
          } catch (failure) {
            toast.error(failureText(failure, 'The invitation could not be cancelled. Please try again.'));
          }
        }}
        onRemove={async (member) => {
          await teamsApi.removeMember(licenseId, member.memberId);
          await reload();
          toast.success(`${member.name} no longer has a seat: it is free to give to someone else.`);
        }}
        onAddSeats={addSeats.open}
      />
      {children}
    </div>
  );
}
