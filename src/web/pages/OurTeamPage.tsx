export default function OurTeamPage() {
  return (
    <main>
      <h1>Our Team</h1>
    </main>
  );
}
