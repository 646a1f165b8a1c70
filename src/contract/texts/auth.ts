/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** Login and sign-up screens (spec §2). */
export const AUTH_TEXT = {
  loginHeading: "Login",
  signupHeading: "Sign Up",
  name: "Name",
  email: "Email",
  password: "Password",
  login: "LOGIN",
  signup: "SIGN UP",
  createAccount: "Create New Account",
  newHere: "New to Toolyard?",
  haveAccount: "Already have an account?",
  pleaseLogin: "Please Login",
  or: "OR",
  google: "Continue With Google",
} as const;

/** Provider errors, as sentences a person understands. */
export const AUTH_ERRORS = {
  invalidCredentials: "Wrong e-mail or password. Please check both and try again.",
  emailInUse: "An account with this e-mail already exists. Please log in instead.",
  tooManyRequests: "Too many attempts. Please wait a minute and try again.",
  network: "We could not reach the server. Check your connection and try again.",
  differentMethod:
    "An account with this e-mail already exists with a different sign-in method. Log in with your e-mail and password.",
  googleNotConfigured: "Google sign-in is not configured on this store.",
  googleFailed: "Google sign-in did not complete. Please try again.",
  generic: "Something went wrong. Please try again.",
} as const;
