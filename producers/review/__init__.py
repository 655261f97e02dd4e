"""`tsograph review`: what a git change reaches."""
