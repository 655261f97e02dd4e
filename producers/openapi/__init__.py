"""`tsograph openapi`: Swagger 2.0 and OpenAPI 3.0/3.1 specs to route-contract facts.

The command reads in one direction, one module per step:

    command        the command line: arguments, then the steps below
    spec_file      where the spec is, what output calls it, reading it
    parsing        input checks, then the JSON or the YAML reader
    input_checks   size, encoding and the pre-scan, before any parser runs
    yaml_composer  libyaml events to a tree, with YAML's safety rules
    json_composer  strict JSON to the same tree
    tree           that tree: mappings with key offsets and dropped repeats
    positions      source offsets to lines and UTF-8 byte columns
    contract       the tree to facts and limitations
    dialects       which version the spec is and what a path item may hold
    operations     paths to operations and the prefixes they are served under
    path_refs      local `$ref` from a path item to the objects it names
    server_urls    3.x server URLs and the 2.0 basePath to path prefixes
    repeats        repeated keys: fatal where they could change facts
    coverage       what the facts leave out, counted as limitations
"""
