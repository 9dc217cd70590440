import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '../../../shared/contact';
import type { PendingInvitation, Team } from '../../../shared/teams';
import { ApiError } from '../../lib/api';
import type { TeamMember } from './MemberList';
import { TeamView } from './TeamView';

afterEach(cleanup);

const owner: TeamMember = {
  memberId: '7c0b8a52-8f3c-4e0e-9d55-2f1d9a3c1e11',
  email: 'ritu@sharma-associates.in',
  name: 'Ritu Sharma',
  isOwner: true,
  licenseId: 'a1f3c9d2-0000-4000-8000-000000000001',
  joinedAt: '2026-11-20T05:30:00.000Z',
  devices: [{ id: 'd-1', name: 'RITU-DESKTOP', lastSeenAt: '2026-11-27T10:15:00.000Z' }],
};
const asha: TeamMember = {
  memberId: '8d1c9b63-9f4d-4f1f-8e66-3a2e0b4d2f22',
  email: 'asha@sharma-associates.in',
  name: 'Asha Verma',
  isOwner: false,
  licenseId: 'a1f3c9d2-0000-4000-8000-000000000002',
  joinedAt: '2026-11-21T05:30:00.000Z',
  devices: [
    { id: 'd-2', name: 'ASHA-LAPTOP', lastSeenAt: '2026-11-26T09:00:00.000Z' },
    { id: 'd-3', name: null, lastSeenAt: '2026-11-25T09:00:00.000Z' },
  ],
};
const pending: PendingInvitation = {
  id: 'e9f2a0c4-1a2b-4c3d-8e4f-5a6b7c8d9e00',
  email: 'karan@sharma-associates.in',
  invitedAt: '2026-11-27T05:30:00.000Z',
  expiresAt: '2026-12-11T05:30:00.000Z',
};
const TEAM: Team = {
  licenseId: 'a1f3c9d2-0000-4000-8000-000000000001',
  toolId: 'b2e4d6f8-0000-4000-8000-000000000009',
  toolName: 'PDF Utility Toolkit',
  seats: 5,
  seatsUsed: 3,
  invitations: [pending],
  members: [owner, asha],
};

type Calls = { invited: string[]; cancelled: string[]; removed: string[]; addSeats: number };

type Refusals = { invite?: ApiError; remove?: ApiError };

/**
 * The panel as My Tools draws it, over a team that changes as the server would: each call settles once the team is
 * "read again" (or fails with `refuse`'s answer).
 */
function Harness({ start, refuse, calls }: { start: Team; refuse?: Refusals; calls: Calls }) {
  const [team, setTeam] = useState(start);
  return (
    <TeamView
      team={team}
      onInvite={async (email) => {
        if (refuse?.invite) throw refuse.invite;
        calls.invited.push(email);
        setTeam((current) => ({
          ...current,
          seatsUsed: current.seatsUsed + 1,
          invitations: [...current.invitations, { ...pending, id: `id-${email}`, email }],
        }));
      }}
      onCancelInvitation={async (invitation) => {
        calls.cancelled.push(invitation.email);
        setTeam((current) => ({
          ...current,
          seatsUsed: current.seatsUsed - 1,
          invitations: current.invitations.filter((candidate) => candidate.id !== invitation.id),
        }));
      }}
      onRemove={async (member) => {
        if (refuse?.remove) throw refuse.remove;
        calls.removed.push(member.email);
        setTeam((current) => ({
          ...current,
          seatsUsed: current.seatsUsed - 1,
          members: current.members.filter((candidate) => candidate.memberId !== member.memberId),
        }));
      }}
      onAddSeats={() => {
        calls.addSeats += 1;
      }}
    />
  );
}

function renderTeam(start: Team = TEAM, refuse?: Refusals) {
  const calls: Calls = { invited: [], cancelled: [], removed: [], addSeats: 0 };
  render(<Harness start={start} refuse={refuse} calls={calls} />);
  const panel = within(screen.getByRole('region', { name: 'Team' }));
  return { panel, calls };
}

describe('the team panel on My Tools', () => {
  it('shows the seats used of the total, the pending invitations and the members with their devices', () => {
    const { panel } = renderTeam();
    expect(panel.getByText('3 of 5 seats used')).toBeTruthy();
    expect(panel.getByText('karan@sharma-associates.in')).toBeTruthy();
    expect(panel.getByText(/Invited 27 Nov 2026 · link works until 11 Dec 2026/)).toBeTruthy();
    const ashaDevices = panel.getByRole('list', { name: 'Devices of Asha Verma' });
    expect(within(ashaDevices).getByText(/ASHA-LAPTOP · last seen 26 Nov 2026/)).toBeTruthy();
    expect(within(ashaDevices).getByText(/Unnamed device · last seen 25 Nov 2026/)).toBeTruthy();
    // The owner's own seat cannot be taken back: no Remove beside it.
    expect(panel.getByText('(you, owner)')).toBeTruthy();
    expect(panel.queryByRole('button', { name: 'Remove Ritu Sharma from the team' })).toBeNull();
    expect(panel.getByRole('button', { name: 'Remove Asha Verma from the team' })).toBeTruthy();
    expect(panel.getByText('One seat each: 2 seats are free.')).toBeTruthy();
  });

  it('checks the address before inviting, then sends it, empties the field and lists the invitation', async () => {
    const user = userEvent.setup();
    const { panel, calls } = renderTeam();
    const email = panel.getByLabelText('Invite by email');
    await user.click(panel.getByRole('button', { name: 'Send invitation' }));
    expect(panel.getByText(CONTACT_MESSAGES.emailRequired)).toBeTruthy();
    expect(document.activeElement).toBe(email);
    await user.type(email, 'neha@');
    await user.keyboard('{Enter}');
    expect(panel.getByText(CONTACT_MESSAGES.emailInvalid)).toBeTruthy();
    expect(calls.invited).toEqual([]);

    await user.type(email, 'sharma-associates.in ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(calls.invited).toEqual(['neha@sharma-associates.in']));
    await waitFor(() => expect((email as HTMLInputElement).value).toBe(''));
    expect(panel.getByText('4 of 5 seats used')).toBeTruthy();
    expect(panel.getByText('neha@sharma-associates.in')).toBeTruthy();
    expect(document.activeElement).toBe(email);
  });

  it('puts the server’s refusal (no free seat) on the address field and keeps what was typed', async () => {
    const user = userEvent.setup();
    const full =
      'Every seat of this team is taken. Add seats, or remove a member or cancel an invitation first.';
    const { panel } = renderTeam(
      { ...TEAM, seatsUsed: 5 },
      { invite: new ApiError(409, { code: 'conflict', message: full }) },
    );
    expect(panel.getByText(/Every seat is taken/)).toBeTruthy();
    const email = panel.getByLabelText('Invite by email');
    await user.type(email, 'neha@sharma-associates.in{Enter}');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(panel.getByText(full).id).toBe(email.getAttribute('aria-describedby')?.split(' ').at(-1));
    expect((email as HTMLInputElement).value).toBe('neha@sharma-associates.in');
    expect(document.activeElement).toBe(email);
  });

  it('cancels an invitation, and focus goes to the invitation field when its row goes', async () => {
    const user = userEvent.setup();
    const { panel, calls } = renderTeam();
    await user.click(
      panel.getByRole('button', { name: 'Cancel the invitation to karan@sharma-associates.in' }),
    );
    await waitFor(() => expect(calls.cancelled).toEqual(['karan@sharma-associates.in']));
    await waitFor(() => expect(document.activeElement).toBe(panel.getByLabelText('Invite by email')));
    expect(panel.queryByText('Pending invitations')).toBeNull();
    expect(panel.getByText('2 of 5 seats used')).toBeTruthy();
  });

  it('asks before taking a seat back: Cancel first and nothing done, Remove takes it', async () => {
    const user = userEvent.setup();
    const { panel, calls } = renderTeam();
    const removeAsha = panel.getByRole('button', { name: 'Remove Asha Verma from the team' });
    await user.click(removeAsha);
    const dialog = within(screen.getByRole('dialog', { name: 'Remove Asha Verma?' }));
    expect(dialog.getByText(/their key stops working on every device/)).toBeTruthy();
    expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Cancel' }));
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(calls.removed).toEqual([]);
    expect(document.activeElement).toBe(removeAsha);

    await user.click(removeAsha);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.removed).toEqual(['asha@sharma-associates.in']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.queryByText('Asha Verma')).toBeNull();
    expect(panel.getByText('2 of 5 seats used')).toBeTruthy();
    // The Remove button went with its row: focus goes to the field that gives the seat to someone else.
    expect(document.activeElement).toBe(panel.getByLabelText('Invite by email'));
  });

  it('keeps the confirmation open with the server’s reason when the seat could not be taken back', async () => {
    const user = userEvent.setup();
    const { panel } = renderTeam(TEAM, {
      remove: new ApiError(409, { code: 'conflict', message: 'This team license is not active any more.' }),
    });
    await user.click(panel.getByRole('button', { name: 'Remove Asha Verma from the team' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Remove Asha Verma?' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('This team license is not active any more.');
    expect(panel.getByText('Asha Verma')).toBeTruthy();
  });

  it('opens Add seats', async () => {
    const user = userEvent.setup();
    const { panel, calls } = renderTeam();
    await user.click(panel.getByRole('button', { name: 'Add seats' }));
    expect(calls.addSeats).toBe(1);
  });
});
