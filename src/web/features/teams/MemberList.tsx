import { UserMinus } from 'lucide';
import type { Team } from '../../../shared/teams';
import { dangerSmallButton } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import { formatDate } from '../../lib/dates';

/** A member of a team, as GET /api/teams/:licenseId lists them. */
export type TeamMember = Team['members'][number];

/** The team's members with their devices; "Remove" on each but the owner asks `onRemove` to confirm it. */
export function MemberList({
  members,
  onRemove,
}: {
  members: TeamMember[];
  onRemove: (member: TeamMember) => void;
}) {
  return (
    <>
      <h4 className="mt-4 text-sm font-semibold text-brand-900">Members</h4>
      <ul className="mt-2 divide-y divide-slate-200">
        {members.map((member) => (
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
                onClick={() => onRemove(member)}
                className={`${dangerSmallButton} mt-2`}
              >
                <Icon node={UserMinus} className="size-4" />
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
