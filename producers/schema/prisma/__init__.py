"""Prisma: schema location, the PSL reader, naming rules, client usage and raw SQL."""
