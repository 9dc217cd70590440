import type { InvitationAccepted, InvitationPreview, PendingInvitation, Team } from '../../../shared/teams';
import { api } from '../../lib/api';

const team = (licenseId: string) => `/api/teams/${encodeURIComponent(licenseId)}`;
const invitation = (token: string) => `/api/team-invitations/${encodeURIComponent(token)}`;

/** A team license's calls (docs/decisions/051-team-licenses.md): the owner's panel on My Tools and the invitee's page. */
export const teamsApi = {
  team: (licenseId: string) => api.get<Team>(team(licenseId)),
  invite: (licenseId: string, email: string) =>
    api.post<{ invitation: PendingInvitation }>(`${team(licenseId)}/invitations`, { email }),
  cancelInvitation: (licenseId: string, invitationId: string) =>
    api.delete<null>(`${team(licenseId)}/invitations/${encodeURIComponent(invitationId)}`),
  removeMember: (licenseId: string, memberId: string) =>
    api.delete<null>(`${team(licenseId)}/members/${encodeURIComponent(memberId)}`),
  invitation: (token: string) => api.get<InvitationPreview>(invitation(token)),
  accept: (token: string) => api.post<InvitationAccepted>(`${invitation(token)}/accept`),
};
