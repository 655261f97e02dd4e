"""NestJS controllers as routes, read from the modules `NestFactory.create` starts from.

Checked against @nestjs/core and @nestjs/common 12.5.1 with
@nestjs/platform-express 12.5.1 (Express 5.3.0):

* a route path is `[globalPrefix] [/v<version>] [module path] [controller path]
  [method path]`, each piece joined as `stripEndSlash(a) + addLeadingSlash(b)`,
  then `/` for an empty path and no trailing slash (router/route-path-factory.js);
* `setGlobalPrefix(prefix, { exclude })` leaves excluded paths without it;
* URI versioning adds `/<prefix><version>` (prefix `v` unless given, none
  for VERSION_NEUTRAL), the method's @Version before the controller's, else
  `defaultVersion`; header and media-type versioning filter by request
  headers instead (narrowed, no order);
* `RouterModule.register([{ path, module, children }])` gives module paths;
* routes are registered per controller in method order and Express tries
  them first-match, unless `routeResolutionStrategy: 'specificity'` sorts
  them (nest-application.js, RouteSpecificitySorter), so a controller is one
  order group; a `host` filter or an @Next() parameter takes a route out of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.node.frameworks import handler_of
from tsograph.producers.routes.node.interpreter import Interpreter
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import ClassValue
from tsograph.producers.routes.node.runtime_values import Context
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import ModuleValue
from tsograph.producers.routes.node.runtime_values import NestRoutes
from tsograph.producers.routes.node.runtime_values import NestSetup
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import Route
from tsograph.producers.routes.node.runtime_values import Value

COMMON = "@nestjs/common"
HTTP_DECORATORS = {
    "Get": "GET",
    "Post": "POST",
    "Put": "PUT",
    "Delete": "DELETE",
    "Patch": "PATCH",
    "Options": "OPTIONS",
    "Head": "HEAD",
    "All": "ALL",
}
OTHER_DECORATORS = frozenset({"Search", "Propfind", "Proppatch", "Mkcol", "Copy", "Move", "Lock"})


@dataclass
class Controller:
    name: str  # the class's graph id: one order group
    routes: list[Route]


def _common(value: Value, name: str) -> bool:
    return isinstance(value, External) and value.package == COMMON and value.path == (name,)


def _frame(interp: Interpreter, cls: ClassValue) -> Frame:
    path = cls.file.facts.path
    module = interp.modules.get(path) or ModuleValue(path, {})
    return Frame(cls.file, module, Context(), path)


def _decorator_call(
    interp: Interpreter, decorator: Node, cls: ClassValue, frame: Frame
) -> tuple[Value, list[Value], Node]:
    """(what the decorator names, its evaluated arguments, the name token)."""
    inner = decorator.part("value") or decorator
    if inner.kind == "call":
        callee = inner.part("callee") or inner
        args = [interp.eval(arg, cls.scope, frame) for arg in inner.items]
    else:
        callee, args = inner, []
    token = callee.part("property") if callee.kind == "member" else callee
    return interp.eval(callee, cls.scope, frame), args, token or callee


def _module_options(interp: Interpreter, cls: ClassValue) -> ObjectValue | None:
    frame = _frame(interp, cls)
    for decorator in cls.node.decorators:
        named, args, _ = _decorator_call(interp, decorator, cls, frame)
        if _common(named, "Module") and args and isinstance(args[0], ObjectValue):
            return args[0]
    return None


def _items(value: Value) -> list[Value]:
    return list(value.items) if isinstance(value, ArrayValue) else []


def _join(left: str, right: str) -> str:
    """Nest's `stripEndSlash(a) + addLeadingSlash(b)` (an empty piece adds nothing)."""
    if not right:
        return left
    lead = right if right.startswith("/") or right.startswith("{/") else "/" + right
    return (left[:-1] if left.endswith("/") else left) + lead


def _module_paths(interp: Interpreter, routes: Value, base: str, into: dict[Node, str]) -> None:
    for item in _items(routes):
        if isinstance(item, ClassValue):
            into.setdefault(item.node, base)
        elif isinstance(item, ObjectValue):
            path = item.members.get("path", "")
            here = _join(base, path) if isinstance(path, str) else base
            module = item.members.get("module")
            if isinstance(module, ClassValue):
                into.setdefault(module.node, here)
            _module_paths(interp, item.members.get("children", UNKNOWN), here, into)


def _modules(interp: Interpreter, root: Value) -> Iterator[tuple[ClassValue, ObjectValue]]:
    """Modules reachable through `imports`, depth first from the root, each once."""
    seen: set[Node] = set()
    stack = [root]
    while stack:
        current = stack.pop()
        if not isinstance(current, ClassValue) or current.node in seen:
            continue
        seen.add(current.node)
        options = _module_options(interp, current)
        if options is None:
            continue
        yield current, options
        stack.extend(reversed(_items(options.members.get("imports", UNKNOWN))))


def controllers(interp: Interpreter, nest: NestSetup) -> list[Controller]:
    module_paths: dict[Node, str] = {}
    found: list[ClassValue] = []
    conditional: set[Node] = set()  # controllers only one branch of a `?:` list names
    listed_always: set[Node] = set()
    for module, options in _modules(interp, nest.root_module):
        imports = options.members.get("imports", ArrayValue())
        if not isinstance(imports, ArrayValue) or not imports.complete:
            interp.note("unresolved-nest-imports", _place(interp, module))  # modules it hides
        for imported in _items(imports):
            if isinstance(imported, NestRoutes):
                _module_paths(interp, imported.routes, "", module_paths)
        listed = options.members.get("controllers", ArrayValue())
        if not isinstance(listed, ArrayValue):
            branches = _conditional_controllers(interp, module)
            if branches is not None:
                either, maybe = branches
                found.extend([*either, *maybe])
                listed_always.update(item.node for item in either)
                conditional.update(item.node for item in maybe)
                continue
        items = _items(listed)
        if (
            not isinstance(listed, ArrayValue)
            or not listed.complete
            or not all(isinstance(item, ClassValue) for item in items)
        ):
            # Controllers the list hides would be lost without a word: say the module's
            # routes are incomplete.
            interp.note("unresolved-nest-controllers", _place(interp, module))
        classes = [item for item in items if isinstance(item, ClassValue)]
        found.extend(classes)
        listed_always.update(item.node for item in classes)
    result: list[Controller] = []
    done: set[Node] = set()
    for controller in found:
        if controller.node in done:
            continue
        done.add(controller.node)
        owner = _owning_module(interp, nest, controller)
        module_path = module_paths.get(owner, "") if owner is not None else ""
        maybe_listed = controller.node in conditional - listed_always
        result.append(_controller(interp, nest, controller, module_path, maybe_listed))
    return result


def _conditional_controllers(
    interp: Interpreter, module: ClassValue
) -> tuple[list[ClassValue], list[ClassValue]] | None:
    """`controllers: cond ? [A, B] : [A]` with a condition out of view (postiz-app:
    `process.env.MCP_ONLY ? [...] : [...]`): (the controllers both branches list, those
    only one lists, whose routes may not exist). None unless each branch is a complete
    list of controller classes."""
    frame = _frame(interp, module)
    for decorator in module.node.decorators:
        call = decorator.part("value") or decorator
        if call.kind != "call" or not call.items or call.items[0].kind != "object":
            continue
        named, _, _ = _decorator_call(interp, decorator, module, frame)
        if not _common(named, "Module"):
            continue
        value = next(
            (
                item.part("value")
                for item in call.items[0].items
                if item.kind == "property" and static_key(item) == "controllers"
            ),
            None,
        )
        if value is None or value.kind != "conditional":
            return None
        lists: list[list[ClassValue]] = []
        for branch in (value.part("consequence"), value.part("alternative")):
            listed = UNKNOWN if branch is None else interp.eval(branch, module.scope, frame)
            if not isinstance(listed, ArrayValue) or not listed.complete:
                return None
            classes = [item for item in listed.items if isinstance(item, ClassValue)]
            if len(classes) != len(listed.items):
                return None
            lists.append(classes)
        first, second = ({item.node for item in listed} for listed in lists)
        either = [item for item in lists[0] if item.node in second]
        maybe = [item for listed in lists for item in listed if item.node not in first & second]
        return either, maybe
    return None


def _place(interp: Interpreter, cls: ClassValue) -> Place:
    return interp.place(cls.file, cls.node)


def _owning_module(interp: Interpreter, nest: NestSetup, controller: ClassValue) -> Node | None:
    for module, options in _modules(interp, nest.root_module):
        if any(item is controller for item in _items(options.members.get("controllers", UNKNOWN))):
            return module.node
    return None


def _paths(value: Value) -> list[str | None]:
    if value is None:
        return [""]
    if isinstance(value, str):
        return [value]
    if isinstance(value, ArrayValue) and value.complete:
        return [item if isinstance(item, str) else None for item in value.items] or [""]
    return [None]


def _controller(
    interp: Interpreter, nest: NestSetup, cls: ClassValue, module_path: str, conditional: bool
) -> Controller:
    frame = _frame(interp, cls)
    name = cls.file.owner_at(cls.node.start)
    controller_paths: list[str | None] = [""]
    controller_version: Value = None
    host = False
    for decorator in cls.node.decorators:
        named, args, _ = _decorator_call(interp, decorator, cls, frame)
        if not _common(named, "Controller"):
            continue
        first = args[0] if args else None
        if isinstance(first, ObjectValue):
            controller_paths = _paths(first.members.get("path"))
            controller_version = first.members.get("version")
            host = "host" in first.members
        else:
            controller_paths = _paths(first)
    routes: list[Route] = []
    for member in cls.node.items:
        if member.kind == "function" and member.value == "method":
            routes.extend(
                _method_routes(
                    interp,
                    nest,
                    cls,
                    frame,
                    member,
                    (module_path, controller_paths, controller_version, host),
                    Context(conditional=conditional),
                )
            )
    return Controller(name, routes)


def _method_routes(
    interp: Interpreter,
    nest: NestSetup,
    cls: ClassValue,
    frame: Frame,
    method: Node,
    controller: tuple[str, list[str | None], Value, bool],
    context: Context,
) -> list[Route]:
    module_path, controller_paths, controller_version, host = controller
    verbs: list[tuple[str, list[str | None], Place]] = []
    method_version: Value = None
    for decorator in method.decorators:
        named, args, token = _decorator_call(interp, decorator, cls, frame)
        if not isinstance(named, External) or named.package != COMMON or len(named.path) != 1:
            continue
        label = named.path[0]
        place = interp.place(cls.file, token)
        if label in HTTP_DECORATORS:
            verbs.append((HTTP_DECORATORS[label], _paths(args[0] if args else None), place))
        elif label in OTHER_DECORATORS:
            interp.note(f"non-contract-method-{label.lower()}", place)
        elif label == "Version" and args:
            method_version = args[0]
    if not verbs:
        return []
    handler = handler_of(FunctionValue(cls.file, method, cls.scope), "nest")
    passes_on = _has_next_parameter(interp, cls, frame, method)
    versions, version_filter = _versions(nest, method_version or controller_version)
    unordered = tuple(
        reason
        for reason, applies in (
            ("handler-can-pass-on", passes_on),
            ("nest-host-filter", host),
            ("nest-version-filter", version_filter),
        )
        if applies
    )
    routes = []
    for verb, method_paths, place in verbs:
        for version in versions:
            for controller_path in controller_paths:
                for method_path in method_paths:
                    path = _full_path(nest, version, module_path, controller_path, method_path)
                    routes.append(
                        Route(
                            (verb,),
                            path,
                            handler,
                            place,
                            context,
                            narrowed=host or version_filter,
                            unordered=unordered,
                        )
                    )
    return routes


def _has_next_parameter(interp: Interpreter, cls: ClassValue, frame: Frame, method: Node) -> bool:
    params = method.part("parameters")
    for param in [] if params is None else params.items:
        for decorator in param.decorators:
            named, _, _ = _decorator_call(interp, decorator, cls, frame)
            if _common(named, "Next"):
                return True
    return False


def _versions(nest: NestSetup, version: Value) -> tuple[list[str | None], bool]:
    """URI version prefixes to add ("" for none), and whether a header filter applies."""
    versioning = nest.versioning
    if versioning is None:
        return [""], False
    if version is None:
        version = versioning.members.get("defaultVersion")
    if version is None:
        return [""], False
    kind = versioning.members.get("type")
    if not (isinstance(kind, External) and kind.path == ("VersioningType", "URI")):
        return [""], True
    prefix = versioning.members.get("prefix", "v")
    prefix_text = "" if prefix is False else prefix if isinstance(prefix, str) else None
    found: list[str | None] = []
    for item in _items(version) if isinstance(version, ArrayValue) else [version]:
        if _common(item, "VERSION_NEUTRAL"):
            found.append("")
        elif isinstance(item, (str, int)) and prefix_text is not None:
            found.append(f"/{prefix_text}{item}")
        else:
            found.append(None)
    return found, False


def _full_path(
    nest: NestSetup,
    version: str | None,
    module_path: str,
    controller_path: str | None,
    method_path: str | None,
) -> str | None:
    if version is None or controller_path is None or method_path is None:
        return None
    path = _join(_join(_join(version, module_path), controller_path), method_path)
    # An unresolved global prefix leaves the path relative to it (pathAnchor "base").
    if nest.global_prefix and not _excluded(nest, path):
        prefix = nest.global_prefix
        path = (prefix[:-1] if prefix.endswith("/") else prefix) + _join("", path)
    path = _join("", path or "/") if path else "/"
    return path[:-1] if path != "/" and path.endswith("/") else path


def _excluded(nest: NestSetup, path: str) -> bool:
    for item in nest.exclude:
        target = item.members.get("path") if isinstance(item, ObjectValue) else item
        if isinstance(target, str) and _join("", target).rstrip("/") == path.rstrip("/"):
            return True
    return False
