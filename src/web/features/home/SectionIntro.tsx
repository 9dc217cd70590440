import type { SectionIntroContent as Intro } from '../../content/home-sections';

/** The eyebrow, h2 and lead paragraph that open a home section; `id` names the section via aria-labelledby. */
export function SectionIntro({ id, intro }: { id: string; intro: Intro }) {
  return (
    <div className="max-w-2xl">
      <p className="text-sm font-semibold tracking-widest text-accent-700 uppercase">{intro.eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-brand-900 md:text-4xl">
        {intro.title}
      </h2>
      <p className="mt-4 text-lg leading-relaxed text-slate-600">{intro.text}</p>
    </div>
  );
}
