import { useRef, useState, type MouseEvent, type KeyboardEvent } from "react";
import { photoSrcSet } from "../../../../contract/images";
import { TOOL_TEXT } from "../../../../contract/texts/tool";
import { useHydrated } from "../../../lib/hydrated";

const MAIN_SIZES = "(min-width: 768px) 50vw, 100vw";
const photoId = (i: number) => `tool-photo-${i + 1}`;

/** The tool page's one photo, as large as the column: the page's largest paint, drawn at once. */
function MainPhoto({ src, alt, first }: { src: string; alt: string; first: boolean }) {
  return (
    <img
      src={src}
      srcSet={photoSrcSet(src)}
      sizes={MAIN_SIZES}
      alt={alt}
      width={640}
      height={480}
      loading={first ? "eager" : "lazy"}
      fetchPriority={first ? "high" : "auto"}
      // The first is the largest paint: drawn with the first frame it is ready for, not a frame later.
      decoding={first ? "sync" : "async"}
      className="aspect-[4/3] w-full object-contain"
    />
  );
}

/**
 * A tool's photos: the main photo large, in a strip that a phone swipes (CSS scroll snapping,
 * which needs no script) and a keyboard scrolls with its arrows; thumbnails under it that show
 * each photo (links to the photo before the app runs, so they work without it); once the app
 * runs, Previous and Next arrows over the photo. The first photo is loaded at once, the others
 * lazily. Photos come in the store's resized WebP variants (`photoSrcSet`) when uploaded.
 */
export function PhotoGallery({ name, images }: { name: string; images: string[] }) {
  const stripRef = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const hydrated = useHydrated();
  const count = images.length;

  if (count <= 1) {
    return (
      <figure className="bg-base-200 rounded-box overflow-hidden">
        <MainPhoto src={images[0] ?? ""} alt={name} first />
      </figure>
    );
  }

  const show = (index: number) => {
    const strip = stripRef.current;
    const target = Math.max(0, Math.min(count - 1, index));
    setCurrent(target);
    if (!strip) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    strip.scrollTo({ left: target * strip.clientWidth, behavior: reduced ? "instant" : "smooth" });
  };
  /** The photo the strip shows, however it got there (a swipe, the keyboard, a thumbnail). */
  const onScroll = () => {
    const strip = stripRef.current;
    if (!strip || strip.clientWidth === 0) return;
    const shown = Math.round(strip.scrollLeft / strip.clientWidth);
    if (shown !== current && shown >= 0 && shown < count) setCurrent(shown);
  };
  const onThumbnail = (event: MouseEvent<HTMLAnchorElement>, index: number) => {
    // The app scrolls the strip only: the page stays where it is and the address keeps no anchor.
    event.preventDefault();
    show(index);
  };
  /** A thumbnail presents as a button: Space presses it too. */
  const onThumbnailKey = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    if (event.key !== " ") return;
    event.preventDefault();
    show(index);
  };

  return (
    <div className="flex flex-col gap-3" data-testid="photo-gallery">
      <div className="bg-base-200 rounded-box relative overflow-hidden">
        <div
          ref={stripRef}
          onScroll={onScroll}
          // Scrollable, so reachable by keyboard: its arrow keys move it.
          tabIndex={0}
          role="group"
          aria-label={TOOL_TEXT.photos(name)}
          className="flex snap-x snap-mandatory overflow-x-auto [scrollbar-width:none] focus-visible:outline-2 focus-visible:outline-offset-[-2px]"
          data-testid="photo-strip"
        >
          {images.map((src, i) => (
            <figure key={`${src}-${i}`} id={photoId(i)} className="w-full shrink-0 snap-center snap-always">
              <MainPhoto src={src} alt={i === 0 ? name : TOOL_TEXT.photoAlt(name, i + 1, count)} first={i === 0} />
            </figure>
          ))}
        </div>
        {hydrated && (
          <>
            <button
              type="button"
              className="btn btn-circle btn-sm bg-base-100/90 absolute top-1/2 left-2 -translate-y-1/2"
              aria-label={TOOL_TEXT.previousPhoto}
              disabled={current === 0}
              onClick={() => show(current - 1)}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <button
              type="button"
              className="btn btn-circle btn-sm bg-base-100/90 absolute top-1/2 right-2 -translate-y-1/2"
              aria-label={TOOL_TEXT.nextPhoto}
              disabled={current === count - 1}
              onClick={() => show(current + 1)}
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        )}
      </div>
      <ul className="flex flex-wrap gap-2" data-testid="photo-thumbnails">
        {images.map((src, i) => (
          <li key={`${src}-${i}`}>
            {/* A link to the photo in the strip before the app runs; a button once it does. */}
            <a
              href={`#${photoId(i)}`}
              role="button"
              aria-label={TOOL_TEXT.showPhoto(i + 1, count)}
              aria-pressed={i === current}
              onClick={(event) => onThumbnail(event, i)}
              onKeyDown={(event) => onThumbnailKey(event, i)}
              className={`rounded-field bg-base-200 block h-16 w-20 overflow-hidden border-2 ${i === current ? "border-primary" : "border-transparent"}`}
            >
              <img src={src} srcSet={photoSrcSet(src)} sizes="80px" alt="" width={80} height={60} loading="lazy" className="h-full w-full object-cover" />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
