"""`tsograph schema`: relation-use facts from Prisma, Node ORMs, SQL drivers and SQL text."""
