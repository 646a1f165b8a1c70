/**
 * The chunks a server-rendered page needs to be taken over (the app's and its own page's, from
 * the route table and Vite's manifest: pages/render.ts) travel in the page as `modulepreload`
 * links inside an inert `<template>`: nothing is fetched while the first screen loads. The
 * entry (../main.tsx) moves them into the head when it asks for the app, and the browser
 * fetches them all at once rather than one after another as each module names the next.
 */
export const PRELOADS_ID = "toolyard-preloads";

export function startPreloads(): void {
  const template = document.getElementById(PRELOADS_ID);
  if (template instanceof HTMLTemplateElement) document.head.append(template.content);
}
