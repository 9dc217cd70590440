export default function InvalidLinkPage() {
  return (
    <main>
      <h1>Invalid or Expired Link</h1>
    </main>
  );
}
