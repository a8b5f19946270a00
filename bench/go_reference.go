// The Go type checker's own resolution of every call in a project (go/types, from the standard library only): the
// reference `language_calls.py` measures Trident's Go call edges against.
//
// Usage: go run go_reference.go <project folder> <output JSON file>
//
// The `.go` files of each folder are type-checked as the packages they declare (a folder's `_test` package apart),
// with the standard library imported from source; an import of another module is not resolved, and the calls it
// types are written down as unresolved (a call the checker resolves to nothing is judged by nobody). For each call
// expression, the caller is the function or method declaration it is written in (a function literal's calls are its
// declaration's, as Trident counts them) and the callee is the declaration of the function or method the checker
// binds it to (a generic one's origin), kept when it is in the project; a method of an interface is the interface's.
package main

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type output struct {
	Files    int        `json:"files"`
	Defined  [][]any    `json:"defined"`
	Pairs    [][]any    `json:"pairs"`
	Resolved [][]any    `json:"resolved"`
}

func main() {
	root, _ := filepath.Abs(os.Args[1])
	fset := token.NewFileSet()
	packages := map[string][]*ast.File{} // folder + package name -> its files
	count := 0
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") || strings.Contains(path, "/vendor/") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil
		}
		count++
		key := filepath.Dir(path) + "\x00" + file.Name.Name
		packages[key] = append(packages[key], file)
		return nil
	})
	out := output{Files: count, Defined: [][]any{}, Pairs: [][]any{}, Resolved: [][]any{}}
	names := map[token.Pos]string{} // a declaration's name position -> Trident's name for it
	relative := func(pos token.Pos) (string, int) {
		at := fset.Position(pos)
		path, _ := filepath.Rel(root, at.Filename)
		return filepath.ToSlash(path), at.Line
	}
	keys := make([]string, 0, len(packages))
	for key := range packages {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	type site struct {
		caller string
		file   string
		call   *ast.CallExpr
		info   *types.Info
	}
	sites := []site{}
	for _, key := range keys {
		files := packages[key]
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(error) {}}
		conf.Check(files[0].Name.Name, fset, files, info)
		for _, file := range files {
			for _, decl := range file.Decls {
				if gen, ok := decl.(*ast.GenDecl); ok {
					interfaceMethods(gen, names)
				}
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				name := declared(fn)
				names[fn.Name.Pos()] = name
				path, first := relative(fn.Pos())
				_, last := relative(fn.End())
				out.Defined = append(out.Defined, []any{path, name, first, last})
				ast.Inspect(fn.Body, func(node ast.Node) bool {
					if call, ok := node.(*ast.CallExpr); ok {
						sites = append(sites, site{name, path, call, info})
					}
					return true
				})
			}
		}
	}
	for _, s := range sites {
		ident := callee(s.call.Fun)
		if ident == nil {
			continue
		}
		_, line := relative(ident.Pos())
		object := s.info.Uses[ident]
		if _, typed := s.info.Types[s.call.Fun]; typed || object != nil {
			out.Resolved = append(out.Resolved, []any{s.file, line})
		}
		function, ok := object.(*types.Func)
		if !ok {
			continue
		}
		function = function.Origin()
		name, known := names[function.Pos()]
		if !known {
			continue
		}
		path, _ := relative(function.Pos())
		out.Pairs = append(out.Pairs, []any{s.file, s.caller, path, name, s.file, line})
	}
	data, _ := json.Marshal(out)
	os.WriteFile(os.Args[2], data, 0o644)
}

// declared is Trident's name for a function (`Parse`) or method (`FlagSet.Parse`).
func declared(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	kind := fn.Recv.List[0].Type
	for {
		switch t := kind.(type) {
		case *ast.StarExpr:
			kind = t.X
			continue
		case *ast.IndexExpr:
			kind = t.X
			continue
		case *ast.IndexListExpr:
			kind = t.X
			continue
		case *ast.Ident:
			return t.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}

// interfaceMethods names each method an interface type declares (`Value.Set`).
func interfaceMethods(gen *ast.GenDecl, names map[token.Pos]string) {
	for _, spec := range gen.Specs {
		typeSpec, ok := spec.(*ast.TypeSpec)
		if !ok {
			continue
		}
		iface, ok := typeSpec.Type.(*ast.InterfaceType)
		if !ok {
			continue
		}
		for _, field := range iface.Methods.List {
			for _, name := range field.Names {
				names[name.Pos()] = typeSpec.Name.Name + "." + name.Name
			}
		}
	}
}

// callee is the name a call is made by: `f(x)` -> f, `a.b.M(x)` -> M, `f[int](x)` -> f; nil for anything else.
func callee(fun ast.Expr) *ast.Ident {
	for {
		switch f := fun.(type) {
		case *ast.Ident:
			return f
		case *ast.SelectorExpr:
			return f.Sel
		case *ast.IndexExpr:
			fun = f.X
		case *ast.IndexListExpr:
			fun = f.X
		case *ast.ParenExpr:
			fun = f.X
		default:
			return nil
		}
	}
}
