/** Moved to components/ui (the dashboard's trade account page shares them, issue 43). */
export * from "../../components/ui/form-parts";
