#!/usr/bin/env python3
"""Checks the result fields an app wrote (--output) with VTK's own readers.

    check_fields.py RUN_LOG FILE

RUN_LOG is the app's output: a line per written step, "fields at step S (t =
T): name [lo, hi] ...", every number to 17 digits. FILE is what it wrote: a
.pvd series (its .vtu or .pvtu steps) or an Exodus II file (.exo, or the
first of a distributed run's pieces, .exo.N.0, whose siblings are read too).
Every step the log names must be in the file, in order, with each field's
minimum and maximum over the whole mesh the same to the last bit.
Exit 0 when they are, 1 when not; without VTK's Python module it says so
(ctest skips on that line).
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

try:
    from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet, vtkDataObjectTreeIterator
    from vtkmodules.vtkIOExodus import vtkExodusIIReader
    from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader, vtkXMLUnstructuredGridReader
except ImportError:
    print("check_fields: needs VTK's Python module (Debian: apt-get install python3-vtk9)")
    sys.exit(0)

STEP = re.compile(r"fields at step (\d+) \(t = ([^)]*)\):(.*)$")
RANGE = re.compile(r" (\S+) \[([^,\]]+), ([^\]]+)\]")


def logged_steps(path):
    steps = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = STEP.search(line)
            if m:
                ranges = {n: (float(lo), float(hi)) for n, lo, hi in RANGE.findall(m.group(3))}
                steps.append((int(m.group(1)), float(m.group(2)), ranges))
    return steps


def add_ranges(found, data):
    """Min and max of each component of each array of `data` (point or cell data)."""
    for a in range(data.GetNumberOfArrays()):
        arr = data.GetArray(a)
        if arr is None:
            continue
        k = arr.GetNumberOfComponents()
        # VTK's Exodus II reader joins velocity_x, _y, _z as "velocity_".
        base = arr.GetName() if k == 1 else arr.GetName().rstrip("_")
        for c in range(k):
            name = base + ("" if k == 1 else "_" + ("xyz"[c] if k <= 3 else str(c)))
            values = [arr.GetComponent(i, c) for i in range(arr.GetNumberOfTuples())]
            if not values:
                continue
            lo, hi = min(values), max(values)
            if name in found:
                lo, hi = min(lo, found[name][0]), max(hi, found[name][1])
            found[name] = (lo, hi)


def xml_ranges(path):
    reader = (vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu")
              else vtkXMLUnstructuredGridReader())
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfCells() == 0:
        raise SystemExit(f"check_fields: {path}: VTK read no cells")
    found = {}
    add_ranges(found, grid.GetPointData())
    add_ranges(found, grid.GetCellData())
    return found, grid.GetNumberOfCells()


def exodus_ranges(paths):
    """Per time step, the ranges over every piece."""
    per_step = None
    for path in paths:
        reader = vtkExodusIIReader()
        reader.SetFileName(path)
        reader.UpdateInformation()
        for kind in (vtkExodusIIReader.NODAL, vtkExodusIIReader.ELEM_BLOCK):
            reader.SetAllArrayStatus(kind, 1)
        steps = reader.GetNumberOfTimeSteps()
        if per_step is None:
            per_step = [{} for _ in range(steps)]
        if steps != len(per_step):
            raise SystemExit(f"check_fields: {path} has {steps} time steps, its siblings "
                             f"{len(per_step)}")
        for s in range(steps):
            reader.SetTimeStep(s)
            reader.Update()
            it = vtkDataObjectTreeIterator()
            it.SetDataSet(reader.GetOutput())
            it.VisitOnlyLeavesOn()
            it.InitTraversal()
            while not it.IsDoneWithTraversal():
                block = it.GetCurrentDataObject()
                add_ranges(per_step[s], block.GetPointData())
                add_ranges(per_step[s], block.GetCellData())
                it.GoToNextItem()
    return per_step or []


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    log, path = sys.argv[1], sys.argv[2]
    steps = logged_steps(log)
    if not steps:
        raise SystemExit(f"check_fields: no 'fields at step' line in {log}")
    if path.endswith(".pvd"):
        folder = os.path.dirname(path)
        files = [d.get("file") for d in ET.parse(path).getroot().iter("DataSet")]
        found = []
        for f in files:
            ranges, cells = xml_ranges(os.path.join(folder, f))
            found.append(ranges)
            print(f"check_fields: {f}: {cells} cells, {len(ranges)} field components")
    else:
        pieces = [path]
        m = re.match(r"(.*\.exo)\.(\d+)\.0+$", path)
        if m:
            pieces = sorted(glob.glob(f"{m.group(1)}.{m.group(2)}.*"))
            if len(pieces) != int(m.group(2)):
                raise SystemExit(f"check_fields: {len(pieces)} pieces of {m.group(1)}, "
                                 f"not {m.group(2)}")
        found = exodus_ranges(pieces)
        print(f"check_fields: {', '.join(pieces)}: {len(found)} time steps")
    if len(found) != len(steps):
        raise SystemExit(f"check_fields: {path} holds {len(found)} steps, the run wrote "
                         f"{len(steps)}")
    bad = 0
    for (step, _, want), got in zip(steps, found):
        for name, (lo, hi) in want.items():
            if name not in got:
                print(f"check_fields: step {step}: no field {name} in the file "
                      f"(it has {sorted(got)})")
                bad += 1
            elif got[name] != (lo, hi):
                print(f"check_fields: step {step}: {name} is [{got[name][0]!r}, "
                      f"{got[name][1]!r}] in the file, [{lo!r}, {hi!r}] in the run")
                bad += 1
    total = sum(len(w) for _, _, w in steps)
    print(f"check_fields: {total - bad} of {total} field ranges over {len(steps)} steps match")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
