import { TeamInvitation } from '../features/teams/TeamInvitation';
import { MyToolsSubpage } from './MyToolsSubpage';

/** /my-tools/team-invitations/<token>: a seat of someone's team license, offered by email (issue 54). */
export default function TeamInvitationPage() {
  return (
    <MyToolsSubpage title="Team invitation">
      <TeamInvitation />
    </MyToolsSubpage>
  );
}
