import type { PurchasedTool } from '../../shared/shop';
import { useAddSeats } from '../features/checkout/useAddSeats';
import { addSeatsButton, TeamPanel, useTeam } from '../features/teams/TeamPanel';

/**
 * My Tools' panel of a team license the buyer owns (issue 54), loaded only on such a tool's card: the team, and the
 * checkout's "Add seats", which meet here (decision 055).
 */
export default function MyToolsTeamPanel({ tool, licenseId }: { tool: PurchasedTool; licenseId: string }) {
  const team = useTeam(licenseId);
  const addSeats = useAddSeats({
    tool,
    licenseId,
    seats: team.data?.seats,
    onPurchased: () => void team.reload(),
    returnFocus: () => addSeatsButton(licenseId),
  });
  return (
    <TeamPanel licenseId={licenseId} team={team} addSeats={addSeats}>
      {addSeats.dialog}
    </TeamPanel>
  );
}
