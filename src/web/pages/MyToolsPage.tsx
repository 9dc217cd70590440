export default function MyToolsPage() {
  return (
    <main>
      <h1>My Tools</h1>
    </main>
  );
}
