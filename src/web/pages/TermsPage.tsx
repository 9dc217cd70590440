export default function TermsPage() {
  return (
    <main>
      <h1>Terms and Conditions</h1>
    </main>
  );
}
