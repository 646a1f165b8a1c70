import { describe, expect, it } from "vitest";
import { classesOf, criticalCss } from "./critical-css";

// The shapes Tailwind 4 and daisyUI 5 write: layers, escaped class names, :is()/:where()/:not(),
// media and supports groups, @property and @keyframes.
const SHEET = [
  "/*! tailwindcss | MIT License */",
  "@layer theme, base, utilities;",
  "@property --tw-shadow{syntax:\"*\";inherits:false;initial-value:0 0 #0000}",
  "@layer base{*,:after{box-sizing:border-box}html{line-height:1.5}[hidden]{display:none}}",
  "@layer utilities{",
  ".flex{display:flex}",
  ".grid{display:grid}",
  ".md\\:h-96{height:24rem}",
  ".w-1\\/2{width:50%}",
  ".\\32 xl\\:p-4{padding:1rem}",
  ".\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}",
  ".btn:not(.btn-ghost){border:1px}",
  ".card .card-body{padding:2rem}",
  ":is(.input,.select)[disabled]{opacity:.5}",
  ".menu :where(li){list-style:none}",
  "@media (min-width:48rem){.md\\:grid-cols-3{grid-template-columns:repeat(3,1fr)}.flex{gap:1rem}}",
  "@supports (color:color-mix(in lab,red,red)){.unused{color:red}}",
  "}",
  "@keyframes spin{to{transform:rotate(360deg)}}",
  ".content:after{content:\"a } b { c\"}",
].join("");

describe("classesOf", () => {
  it("reads every class of the HTML, entities undone", () => {
    expect([...classesOf('<div class="flex  md:h-96"><p class="[&amp;&gt;svg]:size-4 w-1/2">x</p><a href="/x">y</a></div>')].sort()).toEqual(["[&>svg]:size-4", "flex", "md:h-96", "w-1/2"]);
  });
});

describe("criticalCss", () => {
  const sheet = criticalCss(SHEET);

  it("keeps the rules whose classes the page has, in the sheet's order, and drops the others", () => {
    const css = sheet.for('<main class="flex md:h-96 w-1/2 2xl:p-4 [&>svg]:size-4 md:grid-cols-3"></main>');
    expect(css).toBe(
      [
        "@layer theme, base, utilities;",
        '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
        "@layer base{*,:after{box-sizing:border-box}html{line-height:1.5}[hidden]{display:none}}",
        "@layer utilities{",
        ".flex{display:flex}",
        ".md\\:h-96{height:24rem}",
        ".w-1\\/2{width:50%}",
        ".\\32 xl\\:p-4{padding:1rem}",
        ".\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}",
        "@media (min-width:48rem){.md\\:grid-cols-3{grid-template-columns:repeat(3,1fr)}.flex{gap:1rem}}",
        "}",
        "@keyframes spin{to{transform:rotate(360deg)}}",
      ].join(""),
    );
  });

  it("needs every class of a compound or a descendant selector, and one of an :is() list", () => {
    expect(sheet.for('<div class="card"></div>')).not.toContain(".card .card-body");
    expect(sheet.for('<div class="card"><div class="card-body"></div></div>')).toContain(".card .card-body{padding:2rem}");
    expect(sheet.for('<input class="select">')).toContain(":is(.input,.select)[disabled]{opacity:.5}");
    expect(sheet.for('<input class="other">')).not.toContain(":is(.input,.select)");
  });

  it("does not need a class that :not() or :where() names without one", () => {
    expect(sheet.for('<button class="btn"></button>')).toContain(".btn:not(.btn-ghost){border:1px}");
    expect(sheet.for('<ul class="menu"></ul>')).toContain(".menu :where(li){list-style:none}");
  });

  it("leaves out a group with nothing kept, and reads strings with braces as strings", () => {
    const css = sheet.for('<p class="content"></p>');
    expect(css).not.toContain("@supports");
    expect(css).not.toContain("@media");
    expect(css).toContain('.content:after{content:"a } b { c"}');
  });

  it("gives the whole sheet, less its comments, to a page with every class", () => {
    const every = [...SHEET.matchAll(/\.((?:\\[0-9a-f]+ |\\.|[\w-])+)/g)].map((match) => (match[1] as string).replace(/\\32 /g, "2").replace(/\\(.)/g, "$1"));
    expect(sheet.for(`<div class="${every.join(" ").replace(/&/g, "&amp;")}"></div>`)).toBe(SHEET.replace("/*! tailwindcss | MIT License */", ""));
  });
});
