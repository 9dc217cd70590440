export default function ContactPage() {
  return (
    <main>
      <h1>Get in Touch</h1>
    </main>
  );
}
