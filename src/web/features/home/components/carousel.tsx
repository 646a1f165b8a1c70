import { useState, useSyncExternalStore, type MouseEvent } from "react";
import { TEXT } from "../../../../contract/texts/site";

const SLIDES = TEXT.slides.map((slide, i) => ({ ...slide, id: `slide${i + 1}`, image: `/images/slides/slide-${i + 1}.svg` }));

const slideInAddress = () => Math.max(0, SLIDES.findIndex((slide) => `#${slide.id}` === window.location.hash));
function subscribeToHash(onChange: () => void) {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

/**
 * Three slides moved by anchors (#slide1…#slide3), wrapping first↔last. Without the app's
 * code the anchors do it (styles.css shows the slide the address names); once the app runs
 * they move the carousel in place instead of jumping the page.
 */
export function Carousel() {
  // A slide named by the address (a link, or an arrow clicked before the app ran) stays shown
  // until the shopper moves the carousel; the server and hydration show the first.
  const named = useSyncExternalStore(subscribeToHash, slideInAddress, () => 0);
  const [chosen, setActive] = useState<number | null>(null);
  const active = chosen ?? named;
  const count = SLIDES.length;

  const go = (index: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setActive(index);
  };

  return (
    <section aria-roledescription={TEXT.a11y.carouselRole} aria-label={TEXT.a11y.carousel} className="relative w-full overflow-hidden" data-carousel>
      {SLIDES.map((slide, i) => {
        const prev = (i - 1 + count) % count;
        const next = (i + 1) % count;
        return (
          <div
            key={slide.id}
            id={slide.id}
            role="group"
            aria-roledescription={TEXT.a11y.slideRole}
            aria-label={TEXT.a11y.slidePosition(i + 1, count)}
            // A class, not the hidden attribute: Tailwind hides [hidden] with !important, which
            // the no-JavaScript rules of styles.css (the slide an anchor names) could not undo.
            className={i === active ? "relative" : "relative hidden"}
            data-testid="carousel-slide"
          >
            <img
              src={slide.image}
              alt=""
              width={1600}
              height={600}
              className="h-64 w-full object-cover md:h-96"
              fetchPriority={i === 0 ? "high" : "auto"}
              // The first slide is the largest paint: drawn with the first frame it is ready for.
              decoding={i === 0 ? "sync" : "async"}
              // Hidden slides load when shown (and are not preloaded with the page).
              loading={i === 0 ? "eager" : "lazy"}
            />
            <div className="absolute inset-0 flex flex-col justify-center gap-3 bg-gradient-to-r from-neutral/80 to-transparent px-8 text-neutral-content md:px-16">
              <h2 className="max-w-md text-3xl font-bold md:text-5xl">{slide.title}</h2>
              <p className="max-w-md text-lg">{slide.body}</p>
            </div>
            {/* On a phone the arrows sit together at the bottom, clear of the headline; from md up at the sides. */}
            <div className="absolute right-4 bottom-4 flex gap-2 md:top-1/2 md:right-5 md:bottom-auto md:left-5 md:-translate-y-1/2 md:justify-between">
              <a href={`#${SLIDES[prev]?.id}`} className="btn btn-circle btn-sm md:btn-md" aria-label={TEXT.home.previousSlide} onClick={go(prev)}>
                ❮
              </a>
              <a href={`#${SLIDES[next]?.id}`} className="btn btn-circle btn-sm md:btn-md" aria-label={TEXT.home.nextSlide} onClick={go(next)}>
                ❯
              </a>
            </div>
          </div>
        );
      })}
    </section>
  );
}
