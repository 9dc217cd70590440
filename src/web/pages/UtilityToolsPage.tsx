export default function UtilityToolsPage() {
  return (
    <main>
      <h1>Utility Tools</h1>
    </main>
  );
}
