/** The five question-and-answer cards of /blogs (spec §2), written by the Toolyard team. */
export const BLOG_POSTS = [
  {
    id: "react-performance",
    question: "How can you improve the performance of a React application?",
    answer: [
      "Measure first: the React DevTools profiler shows which components render, how often and how long they take. Most slow screens have one or two culprits, not a general problem.",
      "Then render less. Keep state as close as possible to the components that use it, so a change re-renders a small subtree. Split large components, give list items stable keys, and virtualise long lists so only visible rows exist in the DOM.",
      "Ship less. Split code by route with lazy loading so a visitor downloads only the page they open, size and lazy-load images, and cache server data (a query cache such as TanStack Query avoids refetching what you already have).",
      "Memoisation (memo, useMemo, useCallback) helps when a profile shows an expensive render repeated with the same inputs; the React Compiler can now add much of it automatically.",
    ],
  },
  {
    id: "state-management",
    question: "What are the different ways to manage state in a React application?",
    answer: [
      "Local state with useState or useReducer is the default: a form field, a toggle, a step in a wizard. Lift it to the nearest common parent when two siblings need it.",
      "Context shares values that change rarely across a tree, such as the theme, the locale or the signed-in user, without passing props through every level.",
      "Server state (data that lives in a database) is best kept in a query cache such as TanStack Query or SWR, which handles loading, errors, caching and refetching for you.",
      "The URL is state too: filters, search text and the current page belong in the query string so they survive a reload and can be shared. For large client-side state shared across many screens, stores such as Redux Toolkit, Zustand or Jotai are the usual choices.",
    ],
  },
  {
    id: "prototypal-inheritance",
    question: "How does prototypal inheritance work in JavaScript?",
    answer: [
      "Every JavaScript object has a hidden link to another object, its prototype. When you read a property the object does not have, the engine follows that link and looks on the prototype, then on the prototype's prototype, until it finds the property or reaches null. That path is the prototype chain.",
      "Object.create(proto) makes an object whose prototype is proto. Constructor functions do the same through their prototype property: objects made with new Tool() share the methods on Tool.prototype instead of each carrying a copy.",
      "The class syntax is a clearer way to write the same thing: class PowerTool extends Tool sets PowerTool.prototype's prototype to Tool.prototype, so a power tool finds Tool's methods further up the chain.",
      "Writing a property always sets it on the object itself, which shadows the prototype's value without changing the prototype.",
    ],
  },
  {
    id: "unit-tests",
    question: "What is a unit test and why should you write them?",
    answer: [
      "A unit test checks one small piece of code, such as a function or a component, in isolation: given this input, expect that output or behaviour. It runs in milliseconds and needs no browser or server.",
      "Tests catch mistakes when you write the code and, more importantly, every time someone changes it later. They let you refactor with confidence, document how the code is meant to be used, and make bugs cheaper by finding them before customers do.",
      "Good unit tests check behaviour rather than implementation details, so they keep passing when the code is restructured and fail only when something really broke. In React, Testing Library encourages exactly that: find elements the way a user would and assert what the user sees.",
      "Unit tests sit at the base of the test pyramid, under integration tests and a few end-to-end tests that click through the real application.",
    ],
  },
  {
    id: "state-not-set-directly",
    question: "Why should you not set state directly in React?",
    answer: [
      "Writing this.state.count = 5 or mutating an array held in state (items.push(x)) changes the value but does not tell React anything happened, so the component does not re-render and the screen shows stale data.",
      "React also decides whether to re-render by comparing the old and new values by reference. A mutated object is still the same object, so memoised components and effects that depend on it will not notice the change.",
      "Always call the setter (setCount(5)) or setState, and create new objects and arrays instead of changing existing ones: setItems([...items, x]). When the next value depends on the previous one, pass a function, setCount((c) => c + 1), because updates are batched and state is only updated on the next render.",
    ],
  },
] as const;
