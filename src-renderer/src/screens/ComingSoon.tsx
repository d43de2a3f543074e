/** A screen of part 2: named in the navigation now, with what it will do. */
export function ComingSoon({ name, what }: { name: string; what: string }) {
  return (
    <section aria-labelledby="coming-title" className="panel coming-soon">
      <h1 id="coming-title">
        {name} <span className="coming">coming</span>
      </h1>
      <p>This screen is coming in part 2 of the console: {what}.</p>
      <p className="muted">Until then, the Overview and the Queue show what the keeper does.</p>
    </section>
  );
}
