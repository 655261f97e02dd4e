"""The JavaScript/TypeScript value layer shared by the route and schema producers.

What a value of a package export is (`provenance.py`: one table of package
exports to kinds), how JavaScript turns literals into strings and compares
them (`javascript.py`), the one `UNKNOWN` (`unknown.py`) and the one depth
budget (`budget.py`), and the questions about module syntax every evaluator
asks the same way (`modules.py`: `require` and `import()` calls;
`class_members.py`: the syntax that declares what `this.name` holds) and the one
scope table (`scopes.py`: which declaration a name refers to) and the one export
order (`exports.py`: where a module's export comes from). The
evaluators of the producers (the Node route interpreter, the client request
evaluator, the ORM and Prisma provenance) keep only what their own values are.
"""
