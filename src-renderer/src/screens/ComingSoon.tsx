export function ComingSoon({ name, what }: { name: string; what: string }) {
  return (
    <section aria-labelledby="coming-title" className="panel">
      <h1 id="coming-title">{name}</h1>
      <p>Coming in part 2 of the console: {what}.</p>
    </section>
  );
}
